import Foundation
import Testing
import WDietCore
import WDietTestSupport

@Suite("Weight: current value per day, rolling average, trend, weight card")
struct WeightHistoryTests {
    /// Eleven mornings from 2026-02-01; the averages are worked by hand in the comments of `expected`.
    static let values = [80.0, 79.8, 79.6, 79.9, 79.5, 79.3, 79.1, 78.6, 77.9, 80.5, 81.5]
    static let expected: [(average: Double, trend: WeightDay.Trend?)] = [
        (80.0, nil), (79.9, nil), (79.8, nil), (79.825, nil), (79.76, nil), (79.683_333, nil),
        (79.6, .stable), // 557.2 / 7; −0.083 against 79.683
        (79.4, .stable), // drops 80.0: 555.8 / 7; exactly −0.2 is still stable
        (79.128_571, .down), // drops 79.8: 553.9 / 7; −0.271
        (79.257_143, .stable), // drops 79.6: 554.8 / 7; +0.129
        (79.485_714, .up), // drops 79.9: 556.4 / 7; +0.229
    ]

    static func entries(zone: TimeZone = .gmt) -> [WeightEntry] {
        values.enumerated().map { index, kg in
            WeightEntry(kg: kg, loggedAt: Fixtures.date("2026-02-01").adding(days: index).startInstant(in: zone).addingTimeInterval(7 * 3_600))
        }
    }

    @Test("average of the last up-to-7 values from the first entry, trend from the 7th", arguments: 0..<11)
    func rollingAverageAndTrend(index: Int) {
        let days = WeightHistory.days(Self.entries(), in: .gmt)
        #expect(days.count == 11)
        #expect(abs(days[index].average - Self.expected[index].average) < 1e-5)
        #expect(days[index].trend == Self.expected[index].trend)
        #expect(days[index].date == Fixtures.date("2026-02-01").adding(days: index))
    }

    @Test("a second entry on a day replaces the first as that day's value; order of input does not matter")
    func oneCurrentValuePerDay() {
        let morning = WeightEntry(kg: 80.0, loggedAt: Fixtures.utc("2026-02-01T07:00:00Z"))
        let evening = WeightEntry(kg: 79.5, loggedAt: Fixtures.utc("2026-02-01T19:00:00Z"))
        for input in [[morning, evening], [evening, morning]] {
            let daily = WeightHistory.currentPerDay(input, in: .gmt)
            #expect(daily.count == 1)
            #expect(daily.first?.kg == 79.5)
        }
    }

    @Test("entries 23:30Z and 00:30Z are two days in UTC but one day (the later value) in New York")
    func dayInUserTimeZone() {
        let a = WeightEntry(kg: 70.0, loggedAt: Fixtures.utc("2026-02-01T23:30:00Z"))
        let b = WeightEntry(kg: 69.6, loggedAt: Fixtures.utc("2026-02-02T00:30:00Z"))
        #expect(WeightHistory.days([a, b], in: .gmt).map(\.kg) == [70.0, 69.6])
        let ny = WeightHistory.days([a, b], in: Fixtures.zone("America/New_York"))
        #expect(ny.map(\.kg) == [69.6])
        #expect(ny.first?.date == Fixtures.date("2026-02-01"))
    }

    @Test("the weight card shows ↓ only when today's weight is below the average")
    func weightCardArrow() {
        let days = WeightHistory.days(Self.entries(), in: .gmt)
        // Day 9: 77.9 kg against an average of 79.13 → "↓ -1.2".
        let below = WeightCard(days: Array(days.prefix(9)), today: Fixtures.date("2026-02-09"))
        #expect(below.todayKg == 77.9)
        #expect(below.belowAverageKg == -1.2)
        #expect(below.trend == .down)
        // Day 11: 81.5 kg above 79.49: no arrow, no red.
        let above = WeightCard(days: days, today: Fixtures.date("2026-02-11"))
        #expect(above.todayKg == 81.5)
        #expect(above.belowAverageKg == nil)
        // Day 1: the weight equals its own average.
        #expect(WeightCard(days: Array(days.prefix(1)), today: Fixtures.date("2026-02-01")).belowAverageKg == nil)
    }

    @Test("no weight today: the card is empty (\"-- kg\") even with history")
    func emptyCard() {
        let days = WeightHistory.days(Self.entries(), in: .gmt)
        let card = WeightCard(days: days, today: Fixtures.date("2026-02-12"))
        #expect(card.todayKg == nil)
        #expect(card.averageKg == nil)
        #expect(WeightCard(days: [], today: Fixtures.date("2026-02-12")).todayKg == nil)
    }

    @Test("picker default: the latest weight, else 90/70/80 kg by sex, within 30–200", arguments: [
        (nil, Sex.male, 90.0), (nil, .female, 70), (nil, .other, 80), (69.14, .male, 69.1), (250, .female, 200), (25, .other, 30),
    ] as [(Double?, Sex, Double)])
    func pickerDefault(latest: Double?, sex: Sex, expected: Double) {
        #expect(WeightHistory.pickerDefault(latestKg: latest, sex: sex) == expected)
    }
}
