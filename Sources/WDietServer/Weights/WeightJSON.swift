import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// One weight entry as logged.
struct WeightEntryJSON: Encodable, Sendable {
    /// Lowercase, like every id the API writes.
    var id: String
    var kg: Double
    /// The same weight in pounds, to 0.1 lb.
    var lb: Double
    var loggedAt: Date
    var localDate: LocalDate
    var version: Int64

    init(_ stored: StoredWeight) {
        id = stored.entry.id.apiText
        kg = stored.entry.kg
        lb = Units.pounds(fromKilograms: stored.entry.kg)
        loggedAt = stored.entry.loggedAt
        localDate = stored.localDate
        version = stored.version
    }
}

/// A local day's current weight (the day's latest entry) with the rolling average of the last up-to-7 days.
struct WeightDayJSON: Encodable, Sendable {
    var date: LocalDate
    var kg: Double
    var lb: Double
    var averageKg: Double
    /// down, stable or up (±0.2 kg against the previous day's average), from the 7th day with a weight on.
    var trend: String?

    init(_ day: WeightDay) {
        date = day.date
        kg = day.kg
        lb = Units.pounds(fromKilograms: day.kg)
        averageKg = Units.tenth(day.average)
        trend = day.trend.map(Self.name(of:))
    }

    static func name(of trend: WeightDay.Trend) -> String {
        switch trend {
        case .down: "down"
        case .stable: "stable"
        case .up: "up"
        }
    }
}

/// `POST /weights`: the entry, and its day as it now stands (a second entry that day replaces the first).
struct WeightSavedJSON: ResponseEncodable, Sendable {
    var entry: WeightEntryJSON
    var day: WeightDayJSON?
    var unit: WeightUnit
}

/// `GET /weights`: every entry and the daily values, oldest first.
struct WeightHistoryJSON: ResponseEncodable, Sendable {
    var unit: WeightUnit
    var entries: [WeightEntryJSON]
    var days: [WeightDayJSON]
    /// Where the weight picker starts: the latest weight, or 90/70/80 kg by sex the first time (30–200 kg).
    var pickerDefaultKg: Double
}
