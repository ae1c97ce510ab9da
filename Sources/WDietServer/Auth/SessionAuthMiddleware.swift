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
struct SessionAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let presented = SessionToken.presented(in: request) {
            let signedIn = try await accounts.signedInRequest(presenting: presented.token, as: presented.kind)
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
        }
        return try await next(request, context)
    }
}
