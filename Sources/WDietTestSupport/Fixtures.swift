import Foundation
import WDietCore

/// Shared fixtures for the test targets.
public enum Fixtures {
    /// "2026-01-01T10:00:00Z" → that instant. Swift's own ISO 8601 parser: a new `ISO8601DateFormatter` per call
    /// set up a formatter on every call, at some 400 call sites.
    public static func utc(_ iso: String) -> Date {
        guard let date = try? Date.ISO8601FormatStyle().parse(iso) else { fatalError("bad fixture instant \(iso)") }
        return date
    }
}

extension Fixtures {
    public static func date(_ iso: String) -> LocalDate {
        guard let date = LocalDate(iso: iso) else { fatalError("bad fixture date \(iso)") }
        return date
    }

    public static func zone(_ identifier: String) -> TimeZone {
        guard let zone = TimeZone(identifier: identifier) else { fatalError("unknown zone \(identifier)") }
        return zone
    }

    /// A 30-year-old man, 180 cm, 80 kg, moderately active, losing weight, plan from 2026-01-01 (age on 2026-01-01: 30).
    public static func profile(
        dateOfBirth: String = "1995-06-15", sex: Sex = .male, heightCm: Double = 180, weightKg: Double = 80,
        goal: Goal = .lose, activity: ActivityLevel = .moderate, timeZone: String = "Europe/Berlin",
        planStart: String = "2026-01-01", deficit: DeficitSetting = .minus500
    ) -> Profile {
        Profile(
            dateOfBirth: date(dateOfBirth), sex: sex, heightCm: heightCm, weightKg: weightKg, goal: goal, activity: activity,
            timeZoneIdentifier: timeZone, planStartDate: date(planStart), deficit: deficit
        )
    }
}
