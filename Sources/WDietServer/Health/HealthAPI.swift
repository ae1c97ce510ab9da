import Foundation
import Hummingbird
import Logging
import WDietStore

/// `GET /api/v1/health` (issue 21 item 13): whether the store can write, asked for real (`probeWrite`: a write that
/// commits), for a load balancer or a monitor. 200 `{"status": "ok", "store": {"backend", "canWrite": true}}`; 503
/// with `canWrite: false`, the `cause` (`diskFull`, `readOnly`, `databaseLocked`, `connectionLost`,
/// `tooManyConnections`, `ioError`, `corrupt`, `other`) and its explanation for the operator. A full disk that
/// refused a save in the last 30 seconds counts even when the probe (which needs no new space) commits. No session
/// needed; nothing about users is in it. `GET /health` stays what it was: the process is up.
struct HealthAPI: Sendable {
    let services: AppServices
    /// How long a refused save because of a full disk keeps the answer at 503 after the probe commits again.
    static let diskFullWindow: TimeInterval = 30

    func addRoutes(to group: RouterGroup<AppRequestContext>) {
        group.get("health") { _, _ in try await self.check() }
    }

    struct StoreJSON: Encodable {
        var backend: String
        var canWrite: Bool
        var cause: String?
        var explanation: String?
    }

    struct HealthJSON: Encodable {
        var status: String
        var store: StoreJSON
    }

    func check() async throws -> Response {
        let backend: String
        var cause: StoreFailureCause?
        if let database = services.database {
            backend = "sqlite"
            cause = await database.probeWrite()
        } else if let postgres = services.postgres {
            backend = "postgresql"
            cause = await postgres.probeWrite()
        } else {
            backend = "memory"
        }
        if cause == nil, let recent = StoreFailureLog.shared.recentWriteBlocker(within: Self.diskFullWindow), recent.cause == .diskFull {
            cause = .diskFull
        }
        let body = HealthJSON(
            status: cause == nil ? "ok" : "unavailable",
            store: StoreJSON(backend: backend, canWrite: cause == nil, cause: cause?.rawValue, explanation: cause?.explanation))
        let data = try APICoding.encoder.encode(body)
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if cause != nil { headers[.retryAfter] = "10" }
        return Response(status: cause == nil ? .ok : .serviceUnavailable, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
