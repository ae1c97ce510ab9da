import Foundation

/// The protocol's limits, the same for every backend and written down in docs/sync.md.
public enum SyncLimits {
    /// Changes in one push; more is 413. A client with a longer outbox pushes it in several batches.
    public static let maxChangesPerPush = 1_000
    /// Items in one pull page (`limit`), and the page size when `limit` is left out.
    public static let maxPullLimit = 1_000
    public static let defaultPullLimit = 500
    /// Characters of an idempotency key.
    public static let maxIdempotencyKeyLength = 128
    /// Bytes of a generic row's `data` as compact JSON.
    public static let maxRowDataBytes = 64 * 1_024
    /// Properties of a pushed analytics event, characters of a property's snake_case name and of its value: the
    /// limits of `POST /api/v1/events`.
    public static let maxEventProperties = 20
    public static let maxEventPropertyNameLength = 40
    public static let maxEventPropertyValueLength = 200
    /// How long the result of a pushed change is kept for replays. A replay after this is applied again, which
    /// the conflict rules make harmless (an identical upsert changes nothing, a stale one is lost, a delete of a
    /// tombstone is ignored, an event id is recorded once).
    public static let resultRetention: TimeInterval = 30 * 86_400

    /// A collection name: a lowercase letter, then up to 39 lowercase letters, digits or `_`.
    public static func isValidCollection(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 40, ("a"..."z").contains(first) else {
            return false
        }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }
}
