import Foundation

/// Weight over time as the coach reads it: one current value per local day (the day's latest entry),
/// a rolling average of the last up-to-7 values, and a trend from the 7th value on.
public struct WeightDay: Hashable, Codable, Sendable {
    public enum Trend: String, Codable, Sendable {
        case down = "📉", stable = "📊", up = "📈"
    }

    public var date: LocalDate
    public var kg: Double
    /// Mean of this value and up to 6 before it.
    public var average: Double
    /// Nil before the 7th value; otherwise this day's average against the previous value's average (±0.2 kg is stable).
    public var trend: Trend?
}

public enum WeightHistory {
    public static let averageWindow = 7
    public static let stableBandKg = 0.2

    /// One current value per local day, oldest first.
    public static func currentPerDay<S: Sequence>(_ entries: S, in timeZone: TimeZone) -> [(date: LocalDate, kg: Double)] where S.Element == WeightEntry {
        var latest: [LocalDate: WeightEntry] = [:]
        for entry in entries {
            let date = LocalDate(entry.loggedAt, in: timeZone)
            if let existing = latest[date], existing.loggedAt > entry.loggedAt { continue }
            latest[date] = entry
        }
        return latest.sorted { $0.key < $1.key }.map { ($0.key, $0.value.kg) }
    }

    /// The rolling average and trend for each daily value (oldest first).
    public static func days(_ daily: [(date: LocalDate, kg: Double)]) -> [WeightDay] {
        var result: [WeightDay] = []
        result.reserveCapacity(daily.count)
        var windowSum = 0.0
        for (index, value) in daily.enumerated() {
            windowSum += value.kg
            if index >= averageWindow { windowSum -= daily[index - averageWindow].kg }
            let average = windowSum / Double(min(index + 1, averageWindow))
            var trend: WeightDay.Trend?
            if index >= averageWindow - 1, let previous = result.last {
                let change = average - previous.average
                trend = change < -stableBandKg - 1e-9 ? .down : change > stableBandKg + 1e-9 ? .up : .stable
            }
            result.append(WeightDay(date: value.date, kg: value.kg, average: average, trend: trend))
        }
        return result
    }

    public static func days<S: Sequence>(_ entries: S, in timeZone: TimeZone) -> [WeightDay] where S.Element == WeightEntry {
        days(currentPerDay(entries, in: timeZone))
    }

    /// The picker's starting value: the latest weight, or 90/70/80 kg by sex the first time; within the picker's 30–200 kg.
    public static func pickerDefault(latestKg: Double?, sex: Sex) -> Double {
        let kg = latestKg ?? sex.defaultPickerWeightKg
        return min(200, max(30, Units.tenth(kg)))
    }
}

/// The dashboard's weight card (000 "Weight Card Design"): today's weight, the average, and a green ↓ only
/// when today's weight is below the average ("coach, not judge": setbacks are not shown).
public struct WeightCard: Hashable, Codable, Sendable {
    /// Nil when nothing is logged today: the card shows "-- kg · Tap to log your weight".
    public var todayKg: Double?
    public var averageKg: Double?
    public var trend: WeightDay.Trend?
    /// Negative kg below the average, shown as "↓ -0.4"; nil when today's weight is not below it.
    public var belowAverageKg: Double?

    public init(days: [WeightDay], today: LocalDate) {
        guard let last = days.last, last.date == today else {
            todayKg = nil
            averageKg = nil
            trend = nil
            belowAverageKg = nil
            return
        }
        todayKg = last.kg
        averageKg = last.average
        trend = last.trend
        let difference = Units.tenth(last.kg - last.average)
        belowAverageKg = difference < 0 ? difference : nil
    }
}
