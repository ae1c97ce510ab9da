import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `/api/v1/auth`: accounts and sessions for native clients, which hold a bearer token.
///
/// - `POST register {email, password}` → 201 `{"token", "user": {"id", "email", "isGuest"}}`
/// - `POST login {email, password}` → 200, the same shape; 401 `invalid_credentials` for any wrong pair
/// - `POST guest` → 201, the same shape with `"email": null`
/// - `POST upgrade {email, password}` (a signed-in guest) → 200, the same user id and a new token
/// - `POST logout` (signed in) → 204; ends the session of the presented token
/// - `POST logout-all` (signed in) → 204; ends every session of the user, on every device
/// - `POST password {currentPassword, newPassword}` (signed in) → 200 `{"token", "user"}`: every session of the user
///   ends (this one too) and the answer carries a new token
/// - `GET me` (signed in) → `{"id", "email", "isGuest"}`
/// - `POST apple|google {idToken, nonce}` → 200 (201 for a new account) `{"token", "user"}`; 409 `link_required` when
///   the token's verified email already has an account; 404 when the provider is not configured
/// - `POST link/apple|google {idToken, nonce, email, password}` → 200 `{"token", "user"}`: connects the identity to
///   the account the password opens (signed in: the session's account, with its password when it has one)
///
/// - `POST password-reset {email}` → 202 `{"message"}`, the same for every email ("Forgot password?": a link goes to
///   the email if it has an account); 503 `recovery_unavailable` without SMTP settings
/// - `POST password-reset/confirm {token, newPassword}` → 200 `{"token", "user", "deviceToken"}`; 400
///   `reset_link_invalid` for an unknown, used or expired token
///
/// Sign-in attempts with a password are throttled (`LoginThrottle`): 429 with Retry-After. `login` answers a
/// `deviceToken` too: sent back with later sign-ins (`deviceToken` in the body), it makes them a trusted device's,
/// which guesses from elsewhere do not lock out. Sign-ups and guests are limited per client address
/// (`AccountCreationLimit`): 429 `too_many_accounts` with Retry-After.
struct AuthAPI: Sendable {
    let accounts: AccountService
    let configuration: ServerConfiguration
    let recovery: PasswordRecovery

    func register(on auth: RouterGroup<AppRequestContext>) {
        auth.post("register") { request, context in
            let body = try await APIInput.decode(EmailPassword.self, from: request, context: context)
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            var signedIn = try await accounts.register(email: body.email, password: body.password, kind: .api, clientAddress: address)
            // Sign-up answers {token, user} as it always has; the device token comes with the first sign-in.
            signedIn.deviceToken = nil
            return SignedInResponse(signedIn, status: .created)
        }
        auth.post("login") { request, context in
            let body = try await APIInput.decode(EmailPassword.self, from: request, context: context)
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            let signedIn = try await accounts.login(
                email: body.email, password: body.password, kind: .api, clientAddress: address, deviceToken: body.deviceToken)
            return SignedInResponse(signedIn, status: .ok)
        }
        for provider in IdentityProvider.Name.allCases {
            auth.post(RouterPath(provider.rawValue)) { request, context in
                let body = try await APIInput.decode(IDTokenBody.self, from: request, context: context)
                let signedIn = try await accounts.signIn(
                    with: provider, idToken: body.idToken ?? "", nonce: body.nonce ?? "", kind: .api, logger: context.logger
                )
                return SignedInResponse(signedIn, status: signedIn.created ? .created : .ok)
            }
            auth.post(RouterPath("link/\(provider.rawValue)")) { request, context in
                let body = try await APIInput.decode(LinkBody.self, from: request, context: context)
                let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
                let signedIn = try await accounts.link(
                    provider, idToken: body.idToken ?? "", nonce: body.nonce ?? "", email: body.email, password: body.password,
                    signedInUserId: context.userId, kind: .api, clientAddress: address, logger: context.logger
                )
                return SignedInResponse(signedIn, status: .ok)
            }
        }
        auth.post("guest") { request, context in
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            return SignedInResponse(try await accounts.startGuest(kind: .api, clientAddress: address), status: .created)
        }
        auth.post("password-reset") { request, context in
            let body = try await APIInput.decode(ResetRequest.self, from: request, context: context)
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            try await recovery.requestReset(email: body.email, clientAddress: address, language: Strings.current.language, logger: context.logger)
            let data = try APICoding.encoder.encode(["message": PasswordRecovery.sentMessage(email: body.email.trimmingCharacters(in: .whitespacesAndNewlines))])
            return Response(
                status: .accepted, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        }
        auth.post("password-reset/confirm") { request, context in
            let body = try await APIInput.decode(ResetConfirmation.self, from: request, context: context)
            return SignedInResponse(try await recovery.reset(token: body.token, newPassword: body.newPassword, kind: .api), status: .ok)
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
        user.post("logout-all") { _, context in
            try await accounts.logoutEverywhere(userId: context.userId)
            return Response(status: .noContent, headers: [.cacheControl: "no-store"])
        }
        user.post("password") { request, context in
            let body = try await APIInput.decode(PasswordChange.self, from: request, context: context)
            let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
            let signedIn = try await accounts.changePassword(
                userId: context.userId, currentPassword: body.currentPassword, newPassword: body.newPassword,
                kind: .api, clientAddress: address
            )
            return SignedInResponse(signedIn, status: .ok)
        }
        user.get("me") { _, context in
            // The session outlived its user only if the user was deleted meanwhile.
            guard let user = try await accounts.user(id: context.userId) else { throw APIError.unauthorized }
            let withProvider = user.email == nil ? try await !accounts.services.identities.identities(userId: user.id).isEmpty : false
            return AccountUserResponse(user, signsInWithProvider: withProvider)
        }
    }
}

/// The body of register, login and upgrade; login also takes the device token an earlier sign-in answered.
struct EmailPassword: Decodable, Sendable {
    var email: String
    var password: String
    var deviceToken: String?
}

/// The body of `POST password-reset`.
struct ResetRequest: Decodable, Sendable {
    var email: String
}

/// The body of `POST password-reset/confirm`.
struct ResetConfirmation: Decodable, Sendable {
    var token: String
    var newPassword: String
}

/// The body of `POST password`.
struct PasswordChange: Decodable, Sendable {
    var currentPassword: String
    var newPassword: String
}

/// The body of `POST apple|google`; both fields are required, and missing ones are named in a 422.
struct IDTokenBody: Decodable, Sendable {
    var idToken: String?
    var nonce: String?
}

/// The body of `POST link/apple|google`: the token, and the account's email and password.
struct LinkBody: Decodable, Sendable {
    var idToken: String?
    var nonce: String?
    var email: String?
    var password: String?
}

/// A user as the auth routes show it. `email` is always present, `null` for a guest.
struct AccountUserResponse: ResponseEncodable, Sendable {
    /// Lowercase, like every id the API writes.
    var id: String
    var email: String?
    var isGuest: Bool

    /// `signsInWithProvider`: the user has an Apple or Google identity, so is no guest even without an email.
    init(_ user: User, signsInWithProvider: Bool = false) {
        id = user.id.apiText
        email = user.email
        isGuest = user.email == nil && !signsInWithProvider
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
        /// Only after a sign-in with a password (left out otherwise).
        var deviceToken: String?
    }

    var body: Body
    var status: HTTPResponse.Status

    init(_ signedIn: AccountService.SignedIn, status: HTTPResponse.Status) {
        body = Body(
            token: signedIn.token, user: AccountUserResponse(signedIn.user, signsInWithProvider: signedIn.signsInWithProvider),
            deviceToken: signedIn.deviceToken)
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
