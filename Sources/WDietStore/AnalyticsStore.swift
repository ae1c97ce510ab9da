import Foundation

/// The analytics events of 004 Epic 5, stored as they happen.
public protocol AnalyticsStore: Sendable {
    /// Records the event once: recording an event id that is already stored for this user changes nothing.
    func recordEvent(_ event: AnalyticsEvent, userId: UUID) async throws

    /// The user's events, oldest first.
    func events(userId: UUID) async throws -> [AnalyticsEvent]
}
