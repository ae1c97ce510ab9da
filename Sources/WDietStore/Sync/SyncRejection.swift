import Foundation
import WDietCore

/// Why a whole push or pull was refused: nothing of the push was applied. The server maps each case to its status
/// (docs/sync.md); messages are for people and name the change by its position and idempotency key, in the
/// language of the work in progress (`Strings.current`) when they are read.
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
            Strings.current("sync.tooManyChanges", ["max": String(SyncLimits.maxChangesPerPush), "changes": String(count)])
        case .invalidChange(let index, let key, let message):
            Strings.current("sync.changeMessage", ["index": String(index), "key": key, "message": message])
        case .idInUse(let index, let key):
            Strings.current("sync.changeIdInUse", ["index": String(index), "key": key])
        case .profileRequired(let index, let key):
            Strings.current("sync.changeProfileRequired", ["index": String(index), "key": key])
        case .profileConflict(let conflict):
            Strings.current("sync.changeProfileConflict", ["index": String(conflict.index), "key": conflict.idempotencyKey])
        case .cursorAhead(let cursor, let latest):
            Strings.current("sync.cursorAhead", ["cursor": String(cursor), "latest": String(latest)])
        }
    }
}
