import Foundation
import WDietCore

/// Why a whole push or pull was refused: nothing of the push was applied. The server maps each case to its status
/// (docs/sync.md); messages are for people and name the change by its position and idempotency key.
public enum SyncRejection: Error, Hashable, Sendable {
    /// More than `SyncLimits.maxChangesPerPush` changes (413).
    case tooManyChanges(Int)
    /// A change breaks the protocol or the normal API's rules (422): its index in `changes`, its key and why.
    case invalidChange(index: Int, key: String, message: String)
    /// A change names an id that belongs to another user (409). That row is neither changed nor shown.
    case idInUse(index: Int, key: String)
    /// A meal or weight arrived before the user has a profile, whose time zone dates it (409).
    case profileRequired(index: Int, key: String)
    /// The profile change's base is not the server's version (409, "Keep Local / Use Server").
    case profileConflict(SyncProfileConflict)
    /// A pull cursor above the user's latest version (400).
    case cursorAhead(cursor: Int64, latest: Int64)

    public var message: String {
        switch self {
        case .tooManyChanges(let count):
            "A push holds at most \(SyncLimits.maxChangesPerPush) changes (this one has \(count)); send the rest in another push"
        case .invalidChange(let index, let key, let message):
            "Change \(index) (\(key)): \(message)"
        case .idInUse(let index, let key):
            "Change \(index) (\(key)): this id is already in use"
        case .profileRequired(let index, let key):
            "Change \(index) (\(key)): set up your profile before logging meals and weights"
        case .profileConflict(let conflict):
            "Change \(conflict.index) (\(conflict.idempotencyKey)): your profile was changed on another device"
        case .cursorAhead(let cursor, let latest):
            "The cursor \(cursor) is ahead of this account's latest change (\(latest)); pull again from 0"
        }
    }
}
