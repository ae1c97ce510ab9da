import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server basics")
struct ServerBasicsTests {
    @Test("health answers ok")
    func health() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            try await client.execute(uri: "/health", method: .get) { response in
                #expect(response.status == .ok)
                #expect(String(buffer: response.body) == #"{"status":"ok"}"#)
            }
        }
    }

    @Test("a user-only route without a session is 401 in the API's error shape")
    func unauthorized() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            try await client.execute(uri: "/api/v1/auth/me", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
                let body = try JSONDecoder().decode(APIErrorBody.self, from: Data(buffer: response.body))
                #expect(body.error.code == "unauthorized")
                #expect(body.error.message == "Please sign in to continue.")
            }
        }
    }

    @Test("an unknown path is a JSON 404")
    func notFound() async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            try await client.execute(uri: "/api/v1/nothing-here", method: .get) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
