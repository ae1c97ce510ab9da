import Foundation
import JWTKit

/// One provider's signing keys, fetched from its JWKS address and kept as long as its Cache-Control says (held to
/// 1 minute ... 1 day; 1 hour when it says nothing). A token signed with a key id the cache does not know makes it
/// fetch again at once, for keys rotated early, but at most once a minute, so a stream of forged key ids cannot
/// turn the server into a flood of requests to the provider. Concurrent callers share one fetch.
///
/// Only RSA keys go in, and only as RS256 verifiers, whatever algorithm a key or a token names.
actor JWKSCache {
    static let defaultMaxAge: TimeInterval = 60 * 60
    static let maxAgeRange: ClosedRange<TimeInterval> = 60...(24 * 60 * 60)
    static let minimumRefetchInterval: TimeInterval = 60

    struct Unavailable: Error {}

    let url: String
    private let fetcher: any JWKSFetching
    private let now: @Sendable () -> Date
    private var keys = JWTKeyCollection()
    private var keyIds: Set<String> = []
    private var expiresAt: Date?
    private var lastFetchAt: Date?
    private var fetching: Task<Void, any Error>?
    /// How many fetches were made (tests check the caching with it).
    private(set) var fetchCount = 0

    init(url: String, fetcher: any JWKSFetching, now: @escaping @Sendable () -> Date) {
        self.url = url
        self.fetcher = fetcher
        self.now = now
    }

    /// The keys, when `keyId` is among them (after a fetch if the cache is stale or does not know it); nil when the
    /// provider does not have it. Throws `Unavailable` when the JWKS cannot be fetched or read.
    func keys(for keyId: String) async throws -> JWTKeyCollection? {
        let at = now()
        if expiresAt.map({ at >= $0 }) ?? true {
            try await refresh()
        }
        if keyIds.contains(keyId) { return keys }
        if let last = lastFetchAt, now().timeIntervalSince(last) < Self.minimumRefetchInterval { return nil }
        try await refresh()
        return keyIds.contains(keyId) ? keys : nil
    }

    private func refresh() async throws {
        if let fetching {
            try await fetching.value
            return
        }
        let task = Task { try await self.load() }
        fetching = task
        defer { fetching = nil }
        try await task.value
    }

    private func load() async throws {
        fetchCount += 1
        lastFetchAt = now()
        let document: JWKSDocument
        do {
            document = try await fetcher.fetch(url)
        } catch {
            throw Unavailable()
        }
        guard let set = try? JSONDecoder().decode(KeySet.self, from: document.body) else { throw Unavailable() }
        let collection = JWTKeyCollection()
        var ids: Set<String> = []
        for key in set.keys where key.kty == "RSA" && (key.use == nil || key.use == "sig") && (key.alg == nil || key.alg == "RS256") {
            guard let kid = key.kid, let n = key.n, let e = key.e,
                  let publicKey = try? Insecure.RSA.PublicKey(modulus: n, exponent: e)
            else { continue }
            await collection.add(rsa: publicKey, digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
            ids.insert(kid)
        }
        keys = collection
        keyIds = ids
        let maxAge = document.maxAge.map { min(max($0, Self.maxAgeRange.lowerBound), Self.maxAgeRange.upperBound) } ?? Self.defaultMaxAge
        expiresAt = now().addingTimeInterval(maxAge)
    }

    /// The JWKS fields read (RFC 7517); others are ignored.
    private struct KeySet: Decodable {
        struct Key: Decodable {
            var kty: String
            var kid: String?
            var use: String?
            var alg: String?
            var n: String?
            var e: String?
        }
        var keys: [Key]
    }
}
