import Foundation
import WDietCore
import WDietStore

/// The rules a profile change obeys on every path that makes one: the JSON API's `PUT /api/v1/profile` (which the
/// profile editor and onboarding call) and the sync push. A change of the stored profile counts against 001 §12.7's
/// limit of 10 an hour; the first profile and an identical retried upload do not; a save that is then refused gives
/// its count back. It throws `LimitReached` and store errors, never HTTP: each caller answers in its own way.
struct ProfileSaving: Sendable {
    let services: AppServices

    /// 001 §12.7: more than 10 profile updates in an hour are refused.
    static let updatesPerWindow = 10
    static let updateWindowSeconds: TimeInterval = 3_600

    /// The 11th change within the hour: refused until `retryAt`.
    struct LimitReached: Error {
        let retryAt: Date
    }

    /// A change counted against the limit (nil id: nothing was counted), to give back if its save fails.
    struct Count: Sendable {
        fileprivate let id: UUID?
        static let none = Count(id: nil)
    }

    /// Counts `profile` against the limit when it changes the stored one.
    func count(_ profile: Profile, over existing: Profile?, userId: UUID, now: Date) async throws -> Count {
        guard let existing, existing != profile else { return .none }
        switch try await services.rateLimits.acquire(
            .profileUpdate, userId: userId, limit: Self.updatesPerWindow, window: Self.updateWindowSeconds, now: now
        ) {
        case .allowed(let id): return Count(id: id)
        case .limited(let retryAt): throw LimitReached(retryAt: retryAt)
        }
    }

    /// A refused save is no update: its count is given back.
    func giveBack(_ count: Count) async {
        if let id = count.id { try? await services.rateLimits.release(id) }
    }

    /// Counts and saves `profile` against the version the client saw; a refused save gives its count back.
    func save(_ profile: Profile, over existing: Profile?, userId: UUID, expectedVersion: Int64?, now: Date) async throws -> StoredProfile {
        let count = try await count(profile, over: existing, userId: userId, now: now)
        do {
            return try await services.profiles.saveProfile(profile, userId: userId, expectedVersion: expectedVersion)
        } catch {
            await giveBack(count)
            throw error
        }
    }
}
