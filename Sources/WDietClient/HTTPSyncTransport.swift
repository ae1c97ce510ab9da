import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WDietStore

/// The sync endpoints over HTTP with URLSession (FoundationNetworking on Linux), signed with the bearer token.
public struct HTTPSyncTransport: SyncTransport {
    public let server: URL
    public let token: String
    private let session: URLSession
    private let timeout: TimeInterval

    /// `server` is the site's root (`http://localhost:8080`); the API is under `/api/v1`.
    public init(server: URL, token: String, timeout: TimeInterval = 30, session: URLSession = .shared) {
        self.server = server
        self.token = token
        self.timeout = timeout
        self.session = session
    }

    public func push(_ request: SyncPushRequest) async throws -> SyncPushResponse {
        var urlRequest = URLRequest(url: APIRequest.url(server, "sync/push"), timeoutInterval: timeout)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
        urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        urlRequest.httpBody = try SyncCoding.encoder.encode(request)
        return try await APIRequest.send(urlRequest, session: session, as: SyncPushResponse.self)
    }

    public func pull(cursor: Int64, limit: Int) async throws -> SyncPullResponse {
        var components = URLComponents(url: APIRequest.url(server, "sync/pull"), resolvingAgainstBaseURL: false)!
        components.queryItems = [URLQueryItem(name: "cursor", value: String(cursor)), URLQueryItem(name: "limit", value: String(limit))]
        var urlRequest = URLRequest(url: components.url!, timeoutInterval: timeout)
        urlRequest.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return try await APIRequest.send(urlRequest, session: session, as: SyncPullResponse.self)
    }
}

/// Sends a request and reads the API's answers: a 2xx body as `T`, anything else as `SyncTransportError`.
enum APIRequest {
    static func url(_ server: URL, _ path: String) -> URL {
        server.appendingPathComponent("api/v1").appendingPathComponent(path)
    }

    static func send<T: Decodable>(_ request: URLRequest, session: URLSession, as type: T.Type) async throws -> T {
        let (data, response) = try await data(for: request, session: session)
        guard (200..<300).contains(response.statusCode) else { throw SyncTransportError.http(failure(data, response)) }
        do {
            return try SyncCoding.decoder.decode(type, from: data)
        } catch {
            throw SyncTransportError.malformedResponse("\(T.self)")
        }
    }

    static func data(for request: URLRequest, session: URLSession) async throws -> (Data, HTTPURLResponse) {
        do {
            let (data, response) = try await session.data(for: request)
            guard let http = response as? HTTPURLResponse else { throw SyncTransportError.malformedResponse("not HTTP") }
            return (data, http)
        } catch let error as SyncTransportError {
            throw error
        } catch let error as URLError where error.code == .timedOut {
            throw SyncTransportError.timedOut
        } catch let error as URLError {
            throw SyncTransportError.unreachable(error.localizedDescription)
        } catch {
            throw SyncTransportError.unreachable(String(describing: error))
        }
    }

    private struct ErrorBody: Decodable {
        struct Detail: Decodable {
            var code: String?
            var message: String?
            var fields: [String: String]?
            var conflict: SyncProfileConflict?
        }
        var error: Detail
    }

    static func failure(_ data: Data, _ response: HTTPURLResponse) -> HTTPFailure {
        let body = try? SyncCoding.decoder.decode(ErrorBody.self, from: data)
        let retryAfter = response.value(forHTTPHeaderField: "Retry-After").flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }
        return HTTPFailure(
            status: response.statusCode, code: body?.error.code,
            message: body?.error.message ?? "The server answered \(response.statusCode)",
            fields: body?.error.fields ?? [:], retryAfter: retryAfter, profileConflict: body?.error.conflict)
    }
}
