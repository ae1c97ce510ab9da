import Foundation
import WDietCore
import WDietStore

/// Something the sync did that the user must hear about; kept until dismissed, so that nothing is dropped silently.
public struct ClientNotice: Hashable, Sendable {
    public enum Kind: String, Sendable {
        /// Another device's change won ("cloud wins"): the local edit was replaced by the server's copy (`server`).
        case lost
        /// The server refused a change (a 4xx other than 409 profile conflict or 429): it waits in the outbox,
        /// parked, until the user fixes or discards it.
        case rejected
    }

    public var seq: Int64
    public var kind: Kind
    public var key: RecordKey
    /// For people: the server's message.
    public var message: String
    /// The local values that lost or were refused (JSON, `SyncCoding`), so the user can redo them.
    public var localJSON: String?
    /// The server's copy that won.
    public var server: SyncItem?
    public var createdAt: Date
}

/// The profile pushed from a stale base (001 §12.5): the dialog shows `local` and `server` and the user picks
/// "Keep Local" or "Use Server" (`ClientStore.resolveProfileConflict`).
public struct ClientProfileConflict: Hashable, Sendable {
    public var base: Profile?
    public var local: Profile
    /// The server's profile (absent when it has none any more).
    public var server: SyncItem?
}

/// What "Keep Local / Use Server" chose.
public enum ProfileResolution: Sendable {
    /// Push the local profile again, from the server's version this time.
    case keepLocal
    /// Drop the local edit; the server's profile becomes this device's.
    case useServer
}
