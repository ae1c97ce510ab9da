import Foundation
import WDietCore

/// A profile change pushed from a stale base (001 §12.5 "Keep Local / Use Server"): the three copies the dialog
/// shows. "Keep Local" pushes `local` again with `baseVersion = server.version`; "Use Server" drops the local edit.
public struct SyncProfileConflict: Hashable, Codable, Sendable {
    /// The change's position in the push and its key.
    public var index: Int
    public var idempotencyKey: String
    /// The version the edit started from (absent: the client created a profile while the server had one).
    public var baseVersion: Int64?
    /// The copy the edit started from, when the client sent it (`SyncChange.baseProfile`).
    public var base: Profile?
    /// The client's edit.
    public var local: Profile
    /// The server's profile now, as a pull would hand it out; absent when the server has none (the base was of a
    /// profile since deleted).
    public var server: SyncItem?

    public init(index: Int, idempotencyKey: String, baseVersion: Int64?, base: Profile?, local: Profile, server: SyncItem?) {
        self.index = index
        self.idempotencyKey = idempotencyKey
        self.baseVersion = baseVersion
        self.base = base
        self.local = local
        self.server = server
    }
}
