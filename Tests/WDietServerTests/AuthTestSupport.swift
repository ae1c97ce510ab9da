import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// What the auth routes answer, as a client reads it.
struct SignedInBody: Decodable {
    var token: String
    var user: AccountUserBody
}

struct AccountUserBody: Decodable, Equatable {
    var id: UUID
    var email: String?
    var isGuest: Bool
}

extension TestClientProtocol {
    /// A request with an optional JSON body (sent as is, so tests can send broken JSON) and bearer token.
    func send(_ method: HTTPRequest.Method, _ uri: String, body: String? = nil, token: String? = nil, headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if body != nil { headers[.contentType] = "application/json" }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    func register(_ email: String, _ password: String = "correct horse") async throws -> SignedInBody {
        let response = try await send(.post, "/api/v1/auth/register", body: credentialsJSON(email, password))
        #expect(response.status == .created, "register \(email): \(String(buffer: response.body))")
        return try response.json(SignedInBody.self)
    }

    func login(_ email: String, _ password: String = "correct horse") async throws -> TestResponse {
        try await send(.post, "/api/v1/auth/login", body: credentialsJSON(email, password))
    }

    func guest() async throws -> SignedInBody {
        let response = try await send(.post, "/api/v1/auth/guest")
        #expect(response.status == .created)
        return try response.json(SignedInBody.self)
    }

    func me(_ token: String) async throws -> TestResponse {
        try await send(.get, "/api/v1/auth/me", token: token)
    }
}

/// `{"email": …, "password": …}`, escaped properly whatever the strings hold.
func credentialsJSON(_ email: String, _ password: String) -> String {
    let data = try! JSONEncoder().encode(["email": email, "password": password])
    return String(decoding: data, as: UTF8.self)
}

extension TestResponse {
    func json<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONDecoder().decode(T.self, from: Data(buffer: body))
    }

    var apiError: APIErrorBody.Detail? {
        try? json(APIErrorBody.self).error
    }
}
