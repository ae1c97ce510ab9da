import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import WDietStore

/// The API's sign-in routes a client needs before it can sync: register, login, guest (`/api/v1/auth/…`).
public struct AccountClient: Sendable {
    public let server: URL
    private let session: URLSession

    public init(server: URL, session: URLSession = .shared) {
        self.server = server
        self.session = session
    }

    public func register(email: String, password: String) async throws -> ClientStore.Account {
        try await signIn("auth/register", body: ["email": email, "password": password])
    }

    public func login(email: String, password: String) async throws -> ClientStore.Account {
        try await signIn("auth/login", body: ["email": email, "password": password])
    }

    /// A guest account (no email), which the user can upgrade later on the web or through the API.
    public func guest() async throws -> ClientStore.Account {
        try await signIn("auth/guest", body: nil)
    }

    private struct SignedIn: Decodable {
        struct User: Decodable {
            var id: UUID
            var email: String?
        }
        var token: String
        var user: User
    }

    private func signIn(_ path: String, body: [String: String]?) async throws -> ClientStore.Account {
        var request = URLRequest(url: APIRequest.url(server, path), timeoutInterval: 30)
        request.httpMethod = "POST"
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONEncoder().encode(body)
        }
        let signedIn = try await APIRequest.send(request, session: session, as: SignedIn.self)
        return ClientStore.Account(server: server, token: signedIn.token, userId: signedIn.user.id, email: signedIn.user.email)
    }
}
