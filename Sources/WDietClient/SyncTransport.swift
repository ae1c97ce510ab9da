import Foundation
import WDietStore

/// How the engine reaches the server's two sync endpoints. `HTTPSyncTransport` is the real one; tests wrap it to
/// drop answers, fail or delay.
public protocol SyncTransport: Sendable {
    /// `POST /api/v1/sync/push`.
    func push(_ request: SyncPushRequest) async throws -> SyncPushResponse
    /// `GET /api/v1/sync/pull?cursor=&limit=`.
    func pull(cursor: Int64, limit: Int) async throws -> SyncPullResponse
}

/// Why a request got no usable answer. Anything else a transport throws counts as `unreachable`.
public enum SyncTransportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No connection, DNS, reset, TLS… (the device is offline or the server is down).
    case unreachable(String)
    case timedOut
    /// The server answered with an error status.
    case http(HTTPFailure)
    /// A 2xx whose body is not what the protocol says.
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .unreachable(let reason): "The server cannot be reached (\(reason))"
        case .timedOut: "The server did not answer in time"
        case .http(let failure): failure.message
        case .malformedResponse(let reason): "The server's answer cannot be read (\(reason))"
        }
    }
}

/// An error answer: the status and the API's `{"error": {"code", "message", "fields"}}`.
public struct HTTPFailure: Hashable, Sendable {
    public var status: Int
    public var code: String?
    public var message: String
    public var fields: [String: String]
    /// `Retry-After` in seconds (429, 503).
    public var retryAfter: TimeInterval?
    /// The three copies of a 409 `profile_conflict`.
    public var profileConflict: SyncProfileConflict?

    public init(
        status: Int, code: String? = nil, message: String, fields: [String: String] = [:], retryAfter: TimeInterval? = nil,
        profileConflict: SyncProfileConflict? = nil
    ) {
        self.status = status
        self.code = code
        self.message = message
        self.fields = fields
        self.retryAfter = retryAfter
        self.profileConflict = profileConflict
    }

    /// The change a push's refusal names (`fields` has `changes.3`), if it names one.
    public var changeIndex: Int? {
        fields.keys.lazy.compactMap { key -> Int? in
            guard key.hasPrefix("changes.") else { return nil }
            return Int(key.dropFirst("changes.".count))
        }.first
    }

    /// Worth trying again later with the same request: the server is busy or failing, or asked us to wait.
    public var isRetryable: Bool { status == 408 || status == 429 || status >= 500 }
}
