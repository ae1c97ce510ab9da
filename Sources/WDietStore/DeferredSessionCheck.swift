import Foundation
import Synchronization
import WDietCore

/// A session the server took from its per-process hint instead of reading it for this request, to be checked by
/// the request's write itself: PostgreSQL's meal save checks it inside the save's own statement, so the save is one
/// round trip instead of two (the session lookup, then the insert).
///
/// The server sets `current` for such a request and sends the answer only once a store has said `confirmed` (the
/// session, user, language, theme and profile version were all as assumed when the write ran). A store that cannot
/// check it simply leaves it pending, and the server reads the session as for any other request. A store that finds
/// it wrong writes nothing and throws `DeferredSessionCheck.Refused`; the server then reads the session and runs the
/// request again on what it read. Nothing but a confirming statement may write while the check is pending.
public final class DeferredSessionCheck: Sendable {
    public enum State: Sendable, Equatable {
        case pending, confirmed, refused
    }

    /// Thrown by a store whose statement found the session not as assumed; nothing was written.
    public struct Refused: Error, Sendable {
        public init() {}
    }

    public let tokenHash: String
    public let kind: AccountSession.Kind
    public let userId: UUID
    /// The account's language and theme as the server runs the request in them (`users.language`, `appearance`).
    public let language: Language?
    public let appearance: Appearance?
    /// The live profile the server assumes (its copy answers the request).
    public let profileSeen: ProfileSeen
    /// The session must not have expired at this instant.
    public let now: Date

    private let settled = Mutex(State.pending)

    public init(
        tokenHash: String, kind: AccountSession.Kind, userId: UUID, language: Language?, appearance: Appearance?,
        profileSeen: ProfileSeen, now: Date
    ) {
        self.tokenHash = tokenHash
        self.kind = kind
        self.userId = userId
        self.language = language
        self.appearance = appearance
        self.profileSeen = profileSeen
        self.now = now
    }

    /// The check of the request being served, if its session is still to be checked.
    @TaskLocal public static var current: DeferredSessionCheck?

    /// The check a write by `userId` should carry: the current one while pending and for this user.
    public static func pending(for userId: UUID) -> DeferredSessionCheck? {
        guard let check = current, check.userId == userId, check.state == .pending else { return nil }
        return check
    }

    public var state: State { settled.withLock { $0 } }

    /// What the store's statement found.
    public func settle(confirmed: Bool) {
        settled.withLock { $0 = confirmed ? .confirmed : .refused }
    }

    /// The profile version as the statement compares it: nil for "no live profile".
    public var profileVersion: Int64? {
        if case .version(let version) = profileSeen { return version }
        return nil
    }
}
