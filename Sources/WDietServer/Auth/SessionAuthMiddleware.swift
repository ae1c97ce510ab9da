import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// Signs the request in when it carries a live session: `Authorization: Bearer <token>` for an API session, the
/// `wdiet_session` cookie for a web one. A missing, malformed, unknown or expired token leaves `userId` nil, so
/// public routes still answer and `AuthenticatedContext` routes answer 401.
///
/// The rest of a signed-in request runs in the language the account chose in Settings, read with the session;
/// without a choice it stays in the browser's (`LanguageMiddleware`).
///
/// Requests signed in by the cookie are where CSRF lives: a state-changing one from another site's page is refused,
/// and a state-changing API call must carry the page's CSRF token in `X-CSRF-Token`. (Web forms carry it in the
/// `_csrf` field, which `WebForm` checks, since the body is theirs to read.)
struct SessionAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var language: Language?
        if let presented = SessionToken.presented(in: request) {
            let signedIn = try await accounts.signedInRequest(presenting: presented.token, as: presented.kind)
            context.userId = signedIn?.userId
            context.userDataVersion = signedIn?.dataVersion
            context.profileSeen = signedIn?.profileSeen
            language = signedIn?.language
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
        guard let language else { return try await next(request, context) }
        let signedInContext = context
        return try await Strings.withAccountLanguage(language) {
            do {
                var response = try await next(request, signedInContext)
                // Said here because `LanguageMiddleware` answers for the browser's language, not the account's.
                if response.headers[.contentLanguage] == nil { response.headers[.contentLanguage] = language.tag }
                return response
            } catch {
                throw Self.inLanguage(error, language)
            }
        }
    }

    /// An error on its way out to `APIErrorMiddleware`, as the API error it will become, made here so that its
    /// message is in the account's language and says so. Redirects and 5xx go on as they are (a 5xx is logged
    /// there with its detail), and so does the router's 404, which `FileMiddleware` must still see for a static file.
    static func inLanguage(_ error: any Error, _ language: Language) -> any Error {
        if error is WebRedirect { return error }
        var apiError = APIError.from(error)
        guard apiError.status.code < 500, error is APIError || apiError.status != .notFound else { return error }
        if apiError.headers[.contentLanguage] == nil { apiError.headers[.contentLanguage] = language.tag }
        return apiError
    }
}
