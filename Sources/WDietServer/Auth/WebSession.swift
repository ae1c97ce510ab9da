import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import WDietCore
import WDietStore

/// The web app's session: the `wdiet_session` cookie (HttpOnly, SameSite=Lax, Secure behind TLS) and the CSRF
/// token that every state-changing request made with that cookie must carry.
///
/// The CSRF token is an HMAC of a fixed label keyed with the session token: only someone who can read the page
/// (and so already holds the cookie's session) can know it, it needs no storage, and it changes with every session.
/// Pages put it in `<meta name="csrf-token">` and in each form's hidden `_csrf` field; scripts send it as
/// `X-CSRF-Token`. Forms posted before there is a session (sign up, sign in, guest) use a double-submit cookie
/// instead (`wdiet_csrf`, SameSite=Strict), set by the page that shows the form.
enum WebSession {
    static let csrfHeader = HTTPField.Name("X-CSRF-Token")!
    static let csrfField = "_csrf"
    static let preSessionCookie = "wdiet_csrf"

    static func csrfToken(forSession sessionToken: String) -> String {
        let key = SymmetricKey(data: Data(sessionToken.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Data("wdiet-csrf-v1".utf8), using: key)
        return base64url(Data(mac))
    }

    /// The cookie that signs the browser in, for the session's lifetime.
    static func sessionCookie(_ token: String, secure: Bool) -> Cookie {
        Cookie(
            name: SessionToken.cookieName, value: token, maxAge: Int(AccountService.sessionLifetime),
            path: "/", secure: secure, httpOnly: true, sameSite: .lax
        )
    }

    /// Expires the session cookie (logout).
    static func clearedSessionCookie(secure: Bool) -> Cookie {
        Cookie(name: SessionToken.cookieName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .lax)
    }

    /// The pre-session CSRF cookie a sign-in/sign-up page sets; its value goes into the form's hidden field.
    static func preSessionCookie(_ value: String, secure: Bool) -> Cookie {
        Cookie(name: preSessionCookie, value: value, maxAge: 2 * 60 * 60, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Constant-time comparison, so a guessed token gives away nothing through timing.
    static func matches(_ presented: String?, _ expected: String) -> Bool {
        guard let presented, presented.utf8.count == expected.utf8.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(presented.utf8, expected.utf8) { difference |= a ^ b }
        return difference == 0
    }

    static func base64url(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static var forbidden: APIError { APIError(.forbidden, code: "csrf_failed", message: Strings.current("auth.formExpired")) }

    /// A request from another site: its `Origin` (sent by browsers on every cross-site POST) names another host.
    static func isCrossSite(_ request: Request) -> Bool {
        guard let origin = request.headers[.origin], origin != "null" else { return false }
        guard let host = request.head.authority else { return true }
        guard let url = URL(string: origin), let originHost = url.host else { return true }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        return originAuthority.lowercased() != host.lowercased()
    }
}

extension HTTPRequest.Method {
    /// GET, HEAD and OPTIONS change nothing, so they need no CSRF token.
    var isUnsafe: Bool { !(self == .get || self == .head || self == .options) }
}

/// A redirect thrown from a page handler (not signed in → the welcome screen, no profile → onboarding).
struct WebRedirect: HTTPResponseError {
    var location: String
    var status: HTTPResponse.Status { .seeOther }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }
}
