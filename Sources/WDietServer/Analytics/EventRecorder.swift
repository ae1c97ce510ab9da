import Crypto
import Foundation
import Logging
import WDietCore
import WDietStore

/// Records the analytics events of 004 Story 5.2 off the request's path: the user's action never waits for the
/// event, and an event that cannot be stored is logged and dropped, never turned into an error for the user.
struct EventRecorder: Sendable {
    let analytics: any AnalyticsStore
    let now: @Sendable () -> Date

    /// `id` defaults to a new one; pass `stableId` for an event that must be recorded once however often the
    /// moment is seen (a phase switch noticed on every dashboard load of that day).
    func record(_ name: AnalyticsEventName, _ properties: [String: String] = [:], userId: UUID, id: UUID = RandomUUID.make(), logger: Logger) {
        let event = AnalyticsEvent(id: id, name: name, properties: properties, occurredAt: now())
        Task {
            do {
                try await analytics.recordEvent(event, userId: userId)
            } catch {
                logger.warning("Analytics event not recorded", metadata: ["event": "\(name.rawValue)", "error": "\(error)"])
            }
        }
    }

    /// The same id for the same user and key, every time: stores record an event id once.
    static func stableId(userId: UUID, key: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("\(userId.uuidString.lowercased()):\(key)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50 // version 5 (name-based)
        bytes[8] = (bytes[8] & 0x3F) | 0x80 // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// `meal_type` of `meal_logged`: from the local hour the meal was eaten (the journal's time-of-day rule).
    static func mealType(loggedAt: Date, in timeZone: TimeZone) -> String {
        let seconds = Int(loggedAt.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: loggedAt)
        let minute = ((seconds % 86_400) + 86_400) % 86_400 / 60
        switch minute / 60 {
        case 5..<11: return "breakfast"
        case 11..<15: return "lunch"
        case 17..<22: return "dinner"
        default: return "snack"
        }
    }

    /// The moments a dashboard load reveals, each recorded once: the switch to a new MATADOR phase (day 15, 29,
    /// …: "midnight transitions") and a streak milestone (7, 14, 28 days).
    func recordDashboardMoments(_ day: DashboardDay, userId: UUID, logger: Logger) {
        if let cycle = day.targets.cycle, cycle.isPhaseSwitchDay {
            let from = cycle.phase == .diet ? "maintenance" : "diet"
            record(.cyclePhaseSwitched, ["from": from, "to": cycle.phase == .diet ? "diet" : "maintenance", "day_of_plan": String(cycle.dayOfPlan)],
                   userId: userId, id: Self.stableId(userId: userId, key: "phase-switch:\(day.date.iso)"), logger: logger)
        }
        if day.streak.isActiveToday, let milestone = day.streak.milestoneReached {
            record(.streakMilestoneReached, ["days": String(milestone)],
                   userId: userId, id: Self.stableId(userId: userId, key: "streak-milestone:\(day.date.iso):\(milestone)"), logger: logger)
        }
    }
}

extension AppServices {
    var events: EventRecorder { EventRecorder(analytics: analytics, now: now) }
}
