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
    /// Once-only events already stored, shared by the process's recorders.
    let recorded: RecordedMoments

    /// An event with a new id: every call is one more event.
    func record(_ name: AnalyticsEventName, _ properties: [String: String] = [:], userId: UUID, logger: Logger) {
        store(AnalyticsEvent(id: TimeOrderedUUID.make(), name: name, properties: properties, occurredAt: now()),
              userId: userId, remember: false, logger: logger)
    }

    /// An event that must be recorded once however often its moment is seen (a phase switch noticed on every
    /// dashboard load of that day), under its `stableId`; skipped when this process has already stored that id.
    func recordOnce(_ name: AnalyticsEventName, _ properties: [String: String] = [:], userId: UUID, id: UUID, logger: Logger) {
        guard !recorded.contains(id) else { return }
        store(AnalyticsEvent(id: id, name: name, properties: properties, occurredAt: now()),
              userId: userId, remember: true, logger: logger)
    }

    /// `meal_logged` for a meal saved now, for the store to record in the meal's own transaction
    /// (`MealStore.saveMeal(_:userId:timeZone:recording:)`): its source and the meal type of the hour it was eaten.
    func mealLogged(source: String, meal: Meal, in timeZone: TimeZone) -> AnalyticsEvent {
        AnalyticsEvent(id: TimeOrderedUUID.make(), name: .mealLogged,
                       properties: mealLoggedProperties(source: source, meal: meal, in: timeZone), occurredAt: now())
    }

    /// `source` and `meal_type`: the meal's slot (the one chosen, else its local time's: 002's buckets).
    func mealLoggedProperties(source: String, meal: Meal, in timeZone: TimeZone) -> [String: String] {
        ["source": source, "meal_type": meal.slot(in: timeZone).rawValue]
    }

    /// `weight_logged` for a weight saved now, for the store to record in the weight's own transaction.
    func weightLogged(unit: WeightUnit) -> AnalyticsEvent {
        AnalyticsEvent(id: TimeOrderedUUID.make(), name: .weightLogged, properties: ["unit": unit.rawValue], occurredAt: now())
    }

    /// `error_logged` for a web page that failed for a signed-in user (004 Story 5.2: "Error occurred"): the error's
    /// code as `error_type`, the page with its ids replaced as `screen_name`.
    func pageFailed(_ error: APIError, path: String, userId: UUID, logger: Logger) {
        record(.errorLogged, ["error_type": error.code, "screen_name": WebErrorEventMiddleware.screenName(path: path)],
               userId: userId, logger: logger)
    }

    /// An event a store left out of a save it made: logged, never an error for the user.
    static func logNotRecorded(_ event: AnalyticsEvent, error: (any Error)?, logger: Logger) {
        guard let error else { return }
        logger.warning("Analytics event not recorded", metadata: ["event": "\(event.name.rawValue)", "error": "\(error)"])
    }

    private func store(_ event: AnalyticsEvent, userId: UUID, remember: Bool, logger: Logger) {
        Task { [analytics, recorded] in
            do {
                try await analytics.recordEvent(event, userId: userId)
                if remember { recorded.insert(event.id) }
            } catch {
                logger.warning("Analytics event not recorded", metadata: ["event": "\(event.name.rawValue)", "error": "\(error)"])
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

    /// The moments a dashboard load reveals, each recorded once: the switch to a new MATADOR phase (day 15, 29,
    /// …: "midnight transitions") and a streak milestone (7, 14, 28 days).
    func recordDashboardMoments(_ day: DashboardDay, userId: UUID, logger: Logger) {
        if let cycle = day.targets.cycle, cycle.isPhaseSwitchDay {
            let from = cycle.phase == .diet ? "maintenance" : "diet"
            recordOnce(.cyclePhaseSwitched, ["from": from, "to": cycle.phase == .diet ? "diet" : "maintenance", "day_of_plan": String(cycle.dayOfPlan)],
                   userId: userId, id: Self.stableId(userId: userId, key: "phase-switch:\(day.date.iso)"), logger: logger)
        }
        if day.streak.isActiveToday, let milestone = day.streak.milestoneReached {
            recordOnce(.streakMilestoneReached, ["days": String(milestone)],
                   userId: userId, id: Self.stableId(userId: userId, key: "streak-milestone:\(day.date.iso):\(milestone)"), logger: logger)
        }
    }
}

extension AppServices {
    var events: EventRecorder { EventRecorder(analytics: analytics, now: now, recorded: recordedMoments) }
}
