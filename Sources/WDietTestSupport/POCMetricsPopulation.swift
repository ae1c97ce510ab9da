import Foundation
import WDietStore

/// A generated population of 100 users whose POC metrics are known by construction (004 Story 5.4), written
/// through the store protocols so that every backend can be checked against the same answers.
///
/// User i (0–99) starts onboarding on 2026-03-01 at 08:00 UTC plus i minutes, and then:
/// - finishes onboarding when i < 80                                  → activation 80 / 100
/// - logs a meal 6 days + 2 h in (day 7) when i < 50; on day 8 when 50 ≤ i < 60,
///   and on day 6 when 60 ≤ i < 65 (neither counts)                   → Week-1 retention 50 / 100
/// - starts a session 27 days + 1 h in (day 28) when i < 30; on day 27 only when 30 ≤ i < 40
///                                                                    → first-cycle completion 30 / 100
/// - opens "Why like this?" when i is a multiple of 4                  → education 25 / 100
/// - has the phase switch 14 days in when i < 40, and logs a meal 3 days after it when i < 30, or only 9 days
///   after it when 30 ≤ i < 35                                        → continuation 30 / 40
/// Noise that must not count: every user's `session_start` 1 h before onboarding, a deleted `meal_logged` on
/// day 7 for users 60–69, and 10 users who start onboarding in April (outside a March period).
public enum POCMetricsPopulation {
    public static let marchStart = Date(timeIntervalSince1970: 1_772_352_000) // 2026-03-01T08:00:00Z
    public static let hour: TimeInterval = 3_600
    public static let day: TimeInterval = 86_400

    /// Writes the population; `deleteEvent(user, event)` marks an event deleted the way the backend does.
    public static func write(
        users: any UserStore, analytics: any AnalyticsStore,
        deleteEvent: (UUID, UUID) async throws -> Void
    ) async throws {
        for i in 0..<110 {
            let userId = try await users.createUser(id: UUID(), email: nil, displayName: "User \(i)").id
            let april = i >= 100
            let start = (april ? marchStart.addingTimeInterval(35 * day) : marchStart).addingTimeInterval(Double(i % 100) * 60)
            func record(_ name: AnalyticsEventName, at offset: TimeInterval, _ properties: [String: String] = [:]) async throws -> UUID {
                let event = AnalyticsEvent(name: name, properties: properties, occurredAt: start.addingTimeInterval(offset))
                try await analytics.recordEvent(event, userId: userId)
                return event.id
            }
            _ = try await record(.sessionStart, at: -hour)
            _ = try await record(.onboardingStarted, at: 0)
            if april { continue }
            if i < 80 { _ = try await record(.onboardingFinished, at: 10 * 60) }
            if i < 50 { _ = try await record(.mealLogged, at: 6 * day + 2 * hour, ["source": "manual"]) }
            if (50..<60).contains(i) { _ = try await record(.mealLogged, at: 7 * day + 2 * hour, ["source": "manual"]) }
            if (60..<65).contains(i) { _ = try await record(.mealLogged, at: 5 * day + 2 * hour, ["source": "manual"]) }
            if (60..<70).contains(i) {
                let deleted = try await record(.mealLogged, at: 6 * day + 3 * hour, ["source": "manual"])
                try await deleteEvent(userId, deleted)
            }
            if i < 30 { _ = try await record(.sessionStart, at: 27 * day + hour) }
            if (30..<40).contains(i) { _ = try await record(.sessionStart, at: 26 * day + hour) }
            if i % 4 == 0 { _ = try await record(.whyLikeThisOpened, at: 2 * hour, ["topic": "matador"]) }
            if i < 40 {
                _ = try await record(.cyclePhaseSwitched, at: 14 * day, ["from": "maintenance", "to": "diet"])
                if i < 30 { _ = try await record(.mealLogged, at: 17 * day, ["source": "database"]) }
                if (30..<35).contains(i) { _ = try await record(.mealLogged, at: 23 * day, ["source": "database"]) }
            }
        }
    }
}
