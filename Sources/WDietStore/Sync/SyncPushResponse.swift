/// The answer to a push: one result per change, in the order of the request.
public struct SyncPushResponse: Hashable, Codable, Sendable {
    public var results: [SyncChangeResult]

    public init(results: [SyncChangeResult]) {
        self.results = results
    }
}
