/// The answer to `GET /api/v1/sync/pull?cursor=N`: the user's changes with versions above N, in version order.
public struct SyncPullResponse: Hashable, Codable, Sendable {
    public var items: [SyncItem]
    /// The cursor for the next pull: the last item's version, or the request's cursor when there were no items.
    public var nextCursor: Int64
    /// More changes wait after `nextCursor`: pull again at once.
    public var hasMore: Bool

    public init(items: [SyncItem], nextCursor: Int64, hasMore: Bool) {
        self.items = items
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}
