import Foundation

/// The part of the day a meal belongs to: Breakfast, Lunch, Dinner or Snack (issue 17). A meal carries the slot the
/// person chose; when it carries none, its slot is the one of its local time (`init(localHour:)`).
public enum MealSlot: String, CaseIterable, Codable, Sendable {
    case breakfast, lunch, dinner, snack

    /// 002's time buckets, by the local hour: 05:00–10:59 breakfast, 11:00–14:59 lunch, 15:00–16:59 snack,
    /// 17:00–20:59 dinner, and any other hour (21:00–04:59) snack.
    public init(localHour hour: Int) {
        switch hour {
        case 5...10: self = .breakfast
        case 11...14: self = .lunch
        case 17...20: self = .dinner
        default: self = .snack
        }
    }

    /// The slot of an instant's local time in `timeZone`.
    public init(_ instant: Date, in timeZone: TimeZone) {
        self.init(localHour: Self.localMinute(of: instant, in: timeZone) / 60)
    }

    /// Minutes since local midnight (0–1439) of an instant in `timeZone`.
    public static func localMinute(of instant: Date, in timeZone: TimeZone) -> Int {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: instant)
        return ((seconds % 86_400) + 86_400) % 86_400 / 60
    }

    /// "Breakfast", "Frühstück", … in the reader's language.
    public var title: String { Strings.current("meals.\(rawValue)") }

    /// The order of a day: breakfast, lunch, dinner, snack.
    public var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}

extension Meal {
    /// The meal's slot: the one chosen, or the one of its local time in `timeZone`.
    public func slot(in timeZone: TimeZone) -> MealSlot { slot ?? MealSlot(loggedAt, in: timeZone) }

    /// This meal again on `day` (a copy, "same as yesterday"): a new id, the same local time of day in `timeZone`,
    /// and the slot it had (or `slot`), so a late breakfast stays a breakfast. The server and the client copy alike.
    public func copied(to day: LocalDate, in timeZone: TimeZone, id: UUID, slot newSlot: MealSlot? = nil) -> Meal {
        var copy = self
        copy.id = id
        copy.loggedAt = Self.sameTimeOfDay(as: loggedAt, on: day, in: timeZone)
        copy.slot = newSlot ?? slot(in: timeZone)
        return copy
    }

    /// The instant on `day` at the local time of day (to the second) of `instant`, in `timeZone`; on a day whose
    /// clocks skip that time, the same minutes after local midnight.
    public static func sameTimeOfDay(as instant: Date, on day: LocalDate, in timeZone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let minute = MealSlot.localMinute(of: instant, in: timeZone)
        let second = (Int(instant.timeIntervalSince1970.rounded(.down)) % 60 + 60) % 60
        let components = DateComponents(year: day.year, month: day.month, day: day.day, hour: minute / 60, minute: minute % 60, second: second)
        return calendar.date(from: components) ?? day.startInstant(in: timeZone).addingTimeInterval(Double(minute * 60))
    }
}
