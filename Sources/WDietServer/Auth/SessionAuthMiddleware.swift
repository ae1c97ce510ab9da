import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// Signs the request in when it carries a live session: `Authorization: Bearer <token>` for an API session, the
/// `wdiet_session` cookie for a web one. A missing, malformed, unknown or expired token leaves `userId` nil, so
/// public routes still answer and `AuthenticatedContext` routes answer 401.
///
/// It reads the language the account chose in Settings with the session (`accountLanguage`);
/// `AccountSettingsMiddleware` runs the rest of the request in it.
///
/// Requests signed in by the cookie are where CSRF lives: a state-changing one from another site's page is refused,
/// and a state-changing API call must carry the page's CSRF token in `X-CSRF-Token`. (Web forms carry it in the
/// `_csrf` field, which `WebForm` checks, since the body is theirs to read.)
///
/// An API request to one of `checkingTheirOwnSession` (the meal save) may skip the lookup where a store checks the
/// session in the write's own statement (PostgreSQL): see `answerCheckingInTheWrite`.
struct SessionAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService
    let checkingTheirOwnSession: Set<Route>

    /// A route as the router matched it: its method and endpoint path (`/api/v1/meals`).
    struct Route: Hashable, Sendable {
        var method: HTTPRequest.Method
        var path: String
    }

    init(accounts: AccountService, checkingTheirOwnSession: Set<Route> = []) {
        self.accounts = accounts
        self.checkingTheirOwnSession = checkingTheirOwnSession
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let presented = SessionToken.presented(in: request) {
            if presented.kind == .api, !checkingTheirOwnSession.isEmpty,
               let path = context.endpointPath, checkingTheirOwnSession.contains(Route(method: request.method, path: path)),
               let check = accounts.deferredCheck(presenting: presented.token, as: .api) {
                return try await answerCheckingInTheWrite(request, context: context, token: presented.token, check: check, next: next)
            }
            let signedIn = try await accounts.signedInRequest(presenting: presented.token, as: presented.kind)
            return try await next(request, try Self.signIn(context, as: signedIn, presented: presented, request: request))
        }
        return try await next(request, context)
    }

    /// The context of a request presenting this token, once the store has said who it signs in (nil: nobody).
    static func signIn(
        _ context: Context, as signedIn: AccountService.SignedInRequest?, presented: (token: String, kind: AccountSession.Kind), request: Request
    ) throws -> Context {
        var context = context
        context.userId = signedIn?.userId
        context.userDataVersion = signedIn?.dataVersion
        context.profileSeen = signedIn?.profileSeen
        context.accountLanguage = signedIn?.language
        context.accountAppearance = signedIn?.appearance
        if presented.kind == .web, context.userId != nil {
            context.webSessionToken = presented.token
            if request.method.isUnsafe {
                if WebSession.isCrossSite(request) { throw WebSession.forbidden }
                if request.uri.path.hasPrefix("/api/") {
                    let expected = WebSession.csrfToken(forSession: presented.token)
                    guard WebSession.matches(request.headers[WebSession.csrfHeader], expected) else { throw WebSession.forbidden }
                }
            }
        }
        return context
    }
}
