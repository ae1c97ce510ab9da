import Foundation
import Hummingbird
import WDietStore

/// `/api/v1/auth`: accounts and sessions for native clients, which hold a bearer token.
///
/// - `POST register {email, password}` → 201 `{"token", "user": {"id", "email", "isGuest"}}`
/// - `POST login {email, password}` → 200, the same shape; 401 `invalid_credentials` for any wrong pair
/// - `POST guest` → 201, the same shape with `"email": null`
/// - `POST upgrade {email, password}` (a signed-in guest) → 200, the same user id and a new token
/// - `POST logout` (signed in) → 204; ends the session of the presented token
/// - `GET me` (signed in) → `{"id", "email", "isGuest"}`
struct AuthRoutes: Sendable {
    let accounts: AccountService

    func register(on auth: RouterGroup<AppRequestContext>) {
        auth.post("register") { request, context in
            let body = try await APIInput.decode(EmailPassword.self, from: request, context: context)
            let signedIn = try await accounts.register(email: body.email, password: body.password, kind: .api)
            return SignedInResponse(signedIn, status: .created)
        }
        auth.post("login") { request, context in
            let body = try await APIInput.decode(EmailPassword.self, from: request, context: context)
            let signedIn = try await accounts.login(email: body.email, password: body.password, kind: .api)
            return SignedInResponse(signedIn, status: .ok)
        }
        auth.post("guest") { _, _ in
            SignedInResponse(try await accounts.startGuest(kind: .api), status: .created)
        }

        let user = auth.group(context: AuthenticatedContext.self)
        user.post("upgrade") { request, context in
            let body = try await APIInput.decode(EmailPassword.self, from: request, context: context)
            let signedIn = try await accounts.upgradeGuest(
                userId: context.userId, email: body.email, password: body.password, kind: .api, logger: context.logger
            )
            return SignedInResponse(signedIn, status: .ok)
        }
        user.post("logout") { request, _ in
            if let presented = SessionToken.presented(in: request) {
                try await accounts.logout(token: presented.token)
            }
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        user.get("me") { _, context in
            // The session outlived its user only if the user was deleted meanwhile.
            guard let user = try await accounts.user(id: context.userId) else { throw APIError.unauthorized }
            return AccountUserResponse(user)
        }
    }
}

/// The body of register, login and upgrade.
struct EmailPassword: Decodable, Sendable {
    var email: String
    var password: String
}

/// A user as the auth routes show it. `email` is always present, `null` for a guest.
struct AccountUserResponse: ResponseEncodable, Sendable {
    /// Lowercase, like every id the API writes.
    var id: String
    var email: String?
    var isGuest: Bool

    init(_ user: User) {
        id = user.id.apiText
        email = user.email
        isGuest = user.email == nil
    }

    enum CodingKeys: String, CodingKey { case id, email, isGuest }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(email, forKey: .email)
        try container.encode(isGuest, forKey: .isGuest)
    }
}

/// `{"token", "user"}`, never cached.
struct SignedInResponse: ResponseGenerator, Sendable {
    struct Body: Encodable {
        var token: String
        var user: AccountUserResponse
    }

    var body: Body
    var status: HTTPResponse.Status

    init(_ signedIn: AccountService.SignedIn, status: HTTPResponse.Status) {
        body = Body(token: signedIn.token, user: AccountUserResponse(signedIn.user))
        self.status = status
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let data = try APICoding.encoder.encode(body)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
