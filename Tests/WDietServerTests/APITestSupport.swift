import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietSQLite
import WDietTestSupport

/// A signed-in API client: the bearer token from `POST /api/v1/auth/guest` and the user it belongs to.
struct APISession {
    var token: String
    var userId: UUID
}

extension TestClientProtocol {
    /// A request to the API with an optional raw JSON body (sent as is, so tests can send broken JSON).
    func api(_ method: HTTPRequest.Method, _ path: String, _ session: APISession?, body: String? = nil) async throws -> TestResponse {
        var headers: HTTPFields = [:]
        if body != nil { headers[.contentType] = "application/json" }
        if let session { headers[.authorization] = "Bearer \(session.token)" }
        return try await execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// A request with a body built from a dictionary.
    func api(_ method: HTTPRequest.Method, _ path: String, _ session: APISession?, json: [String: Any]) async throws -> TestResponse {
        let data = try JSONSerialization.data(withJSONObject: json)
        return try await api(method, path, session, body: String(decoding: data, as: UTF8.self))
    }

    /// A new guest, signed in the way a native client signs in.
    func signInAsGuest() async throws -> APISession {
        let response = try await execute(uri: "/api/v1/auth/guest", method: .post)
        #expect(response.status == .created)
        let object = try response.object()
        let user = try #require(object["user"] as? [String: Any])
        let token = try #require(object["token"] as? String)
        let id = try #require(user["id"] as? String)
        return APISession(token: token, userId: try #require(UUID(uuidString: id)))
    }

    /// A guest with the 30-year-old man of `Fixtures.profile()`: 180 cm, 80 kg, moderately active, losing weight
    /// with the plan from 2026-01-01, in Berlin, eating 12:00–18:00.
    func signInWithProfile(_ overrides: [String: Any] = [:]) async throws -> APISession {
        let session = try await signInAsGuest()
        let response = try await api(.put, "/api/v1/profile", session, json: APIFixtures.profile(overrides))
        #expect(response.status == .created, "\(String(buffer: response.body))")
        return session
    }
}

enum APIFixtures {
    static func profile(_ overrides: [String: Any] = [:]) -> [String: Any] {
        var body: [String: Any] = [
            "dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
            "activity": "moderate", "timeZone": "Europe/Berlin", "planStartDate": "2026-01-01",
        ]
        for (key, value) in overrides { body[key] = value }
        return body
    }
}

extension TestResponse {
    /// The body as a JSON object.
    func object() throws -> [String: Any] {
        let value = try JSONSerialization.jsonObject(with: Data(buffer: body))
        return try #require(value as? [String: Any], "not a JSON object: \(String(buffer: body))")
    }

    /// The `error` of the API's error shape.
    func errorDetail() throws -> APIErrorBody.Detail {
        #expect(headers[.contentType] == "application/json; charset=utf-8")
        return try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: body)).error
    }

    var text: String { String(buffer: body) }
}

/// A number in a decoded JSON object, whatever NSNumber type it came as.
func number(_ value: Any?) -> Double? {
    (value as? NSNumber)?.doubleValue
}

/// One in-memory database with SR28, shared by the server suites that search or log catalog foods: a copy of the
/// process's one import (`SR28TestDatabase.copy`). Users are created per test, so sharing it is safe.
enum ServerCatalogDatabase {
    static var shared: SharedTestValue<AppDatabase> { SR28TestDatabase.copy }
}
