/// The body of `POST /api/v1/sync/push`: at most `SyncLimits.maxChangesPerPush` changes, applied in order in one
/// transaction.
public struct SyncPushRequest: Hashable, Codable, Sendable {
    public var changes: [SyncChange]

    public init(changes: [SyncChange]) {
        self.changes = changes
    }
}
