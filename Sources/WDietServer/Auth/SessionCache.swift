import Foundation
import Synchronization
import WDietCore
import WDietStore

/// Which user a session token signs in, remembered in this process for a few seconds so that a signed-in request
/// does not read the sessions table every time (under load that read was a quarter of a dashboard request).
///
/// Keyed by the token's hash, like the store. An entry lives `timeToLive` at most and never past the session's
/// own expiry. Logout, "end every session of this user" and a new language choice forget their entries here at
/// once; what this process cannot see is a session ended (or a language chosen) by *another* process. So the cache
/// answers only where one process owns the database (SQLite); on PostgreSQL, where several servers share it,
/// `timeToLive` is 0 and every request asks the store, so a logout, password change or account deletion on one
/// server ends the session on all of them at once.
///
/// On PostgreSQL it keeps *hints* instead (`hintTimeToLive`): what the last lookup of a token read, which a request
/// whose write can check its session in its own statement (the API's meal save, `DeferredSessionCheck`) assumes
/// instead of reading it first. A hint never answers a request by itself: the statement checks the session as the
/// lookup would, at the moment it writes, so another process's logout still ends the session at once.
final class SessionCache: Sendable {
    struct Entry: Sendable {
        var userId: UUID
        var kind: AccountSession.Kind
        /// The user's chosen language as the store read it with the session; `forget(userId:)` when it changes.
        var language: Language? = nil
        /// The user's chosen theme, read with the session like the language; `forget(userId:)` when it changes.
        var appearance: Appearance? = nil
        /// What the lookup saw of the profile (PostgreSQL's hints); nil where the store does not read it.
        var profileSeen: ProfileSeen? = nil
        /// The earlier of "cached + timeToLive" and the session's expiry: until then `entry` answers with it.
        var validUntil: Date
        /// The earlier of "cached + hintTimeToLive" and the session's expiry: until then `hint` offers it.
        var hintUntil: Date = .distantPast
    }

    /// The time to live when one process owns the database.
    static let defaultTimeToLive: TimeInterval = 10
    let timeToLive: TimeInterval
    /// About 100 bytes an entry; when full, expired entries go first, then everything (the store has it all).
    static let capacity = 50_000

    private let entries = Mutex<[String: Entry]>([:])

    /// How long a hint is offered where the cache does not answer (PostgreSQL). It bounds nothing a user sees (the
    /// write checks the session itself), only how often a busy token is read again (and its `lastUsedAt` touched).
    static let defaultHintTimeToLive: TimeInterval = 60
    let hintTimeToLive: TimeInterval

    /// `timeToLive` 0 turns the answers off; `hintTimeToLive` 0 (the default) the hints.
    init(timeToLive: TimeInterval = SessionCache.defaultTimeToLive, hintTimeToLive: TimeInterval = 0) {
        self.timeToLive = timeToLive
        self.hintTimeToLive = hintTimeToLive
    }

    /// The cached answer for this token hash at `now`, or nil to ask the store.
    func entry(tokenHash: String, at now: Date) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[tokenHash] else { return nil }
            if entry.validUntil <= now {
                if entry.hintUntil <= now { entries[tokenHash] = nil }
                return nil
            }
            return entry
        }
    }

    /// What the last lookup of this token read, for a write that checks it itself (`DeferredSessionCheck`); nil
    /// when there is none within `hintTimeToLive` or the session has expired.
    func hint(tokenHash: String, at now: Date) -> Entry? {
        entries.withLock { entries in
            guard let entry = entries[tokenHash] else { return nil }
            guard entry.hintUntil > now else {
                if entry.validUntil <= now { entries[tokenHash] = nil }
                return nil
            }
            return entry
        }
    }

    func remember(tokenHash: String, session: AccountSession, at now: Date) {
        guard timeToLive > 0 || hintTimeToLive > 0 else { return }
        let entry = Entry(
            userId: session.userId, kind: session.kind, language: session.language, appearance: session.appearance,
            profileSeen: session.profileSeen,
            validUntil: min(now.addingTimeInterval(timeToLive), session.expiresAt),
            hintUntil: min(now.addingTimeInterval(hintTimeToLive), session.expiresAt)
        )
        guard entry.validUntil > now || entry.hintUntil > now else { return }
        entries.withLock { entries in
            if entries.count >= Self.capacity {
                entries = entries.filter { $0.value.validUntil > now || $0.value.hintUntil > now }
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            }
            entries[tokenHash] = entry
        }
    }

    func forget(tokenHash: String) {
        _ = entries.withLock { $0.removeValue(forKey: tokenHash) }
    }

    func forget(userId: UUID) {
        entries.withLock { entries in
            entries = entries.filter { $0.value.userId != userId }
        }
    }
}
