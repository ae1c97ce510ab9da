import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `POST /api/v1/events`: the analytics events a client sees happen (004 Story 5.2) — sessions, screens,
/// onboarding steps, errors, a tooltip's "Why like this?". A batch is recorded whole or refused whole.
///
/// The events the server sees itself (`meal_logged`, `weight_logged`, `cycle_phase_switched`,
/// `streak_milestone_reached`, `account_linked`) are recorded where they happen and refused here, so a client
/// cannot count them twice. Ids are the client's: a batch sent again records nothing new.
struct EventsAPI: Sendable {
    let services: AppServices

    static let clientEvents: Set<AnalyticsEventName> = [
        .onboardingStarted, .onboardingStepCompleted, .onboardingFinished, .whyLikeThisOpened,
        .sessionStart, .sessionEnd, .screenView, .screenExit, .errorLogged, .labelScanned,
    ]
    static let maximumBatch = 50
    static let maximumProperties = 20
    static let maximumNameLength = 40
    static let maximumValueLength = 200
    /// Offline clients send late; nothing is older than this or from the future beyond clock skew.
    static let oldest: TimeInterval = 400 * 86_400
    static let newest: TimeInterval = 86_400

    struct Batch: Decodable {
        struct Event: Decodable {
            var id: String?
            var name: String
            var properties: [String: String]?
            var occurredAt: Date?
        }
        var events: [Event]
    }

    struct RecordedJSON: ResponseEncodable, Sendable {
        var recorded: Int
    }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("events", use: record)
    }

    @Sendable func record(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let batch = try await APIInput.decode(Batch.self, from: request, context: context)
        let events = try Self.validated(batch, now: services.now())
        for event in events {
            try await services.analytics.recordEvent(event, userId: context.userId)
        }
        return try RecordedJSON(recorded: events.count).response(from: request, context: context).withStatus(.accepted)
    }

    /// Every event checked before any is recorded; the first problem is reported with its index.
    static func validated(_ batch: Batch, now: Date) throws -> [AnalyticsEvent] {
        guard !batch.events.isEmpty else {
            let message = Strings.current("api.eventsEmpty")
            throw APIError.invalid(message, fields: ["events": message])
        }
        guard batch.events.count <= maximumBatch else {
            let message = Strings.current("api.eventsTooMany", ["max": String(maximumBatch)])
            throw APIError.invalid(message, fields: ["events": message])
        }
        return try batch.events.enumerated().map { index, event in
            func refuse(_ member: String, _ message: String) -> APIError {
                APIError.invalid(message, fields: ["events[\(index)].\(member)": message])
            }
            guard let name = AnalyticsEventName(rawValue: event.name) else { throw refuse("name", Strings.current("api.eventUnknownName")) }
            guard clientEvents.contains(name) else { throw refuse("name", Strings.current("api.eventServerRecorded")) }
            var id = UUID()
            if let text = event.id {
                guard let parsed = UUID(uuidString: text) else { throw refuse("id", APIInput.Message.uuid) }
                id = parsed
            }
            let properties = event.properties ?? [:]
            guard properties.count <= maximumProperties else { throw refuse("properties", Strings.current("api.eventTooManyProperties", ["max": String(maximumProperties)])) }
            for (key, value) in properties {
                guard !key.isEmpty, key.count <= maximumNameLength, key.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }) else {
                    throw refuse("properties", Strings.current("api.eventPropertyName", ["max": String(maximumNameLength)]))
                }
                guard value.count <= maximumValueLength else {
                    throw refuse("properties.\(key)", Strings.current("api.eventValueTooLong", ["max": String(maximumValueLength)]))
                }
            }
            let occurredAt = event.occurredAt ?? now
            guard occurredAt >= now.addingTimeInterval(-oldest), occurredAt <= now.addingTimeInterval(newest) else {
                throw refuse("occurredAt", Strings.current("api.eventTimeTooFar"))
            }
            return AnalyticsEvent(id: id, name: name, properties: properties, occurredAt: occurredAt)
        }
    }
}
