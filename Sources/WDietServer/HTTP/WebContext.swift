import Foundation
import Hummingbird
import WDietStore

/// What a web page handler can know about its request: who is signed in with the web cookie, and the form that
/// `CSRFMiddleware` read and checked. Both the open pages (`AppRequestContext`) and the signed-in ones
/// (`WebUserContext`) have it, so `PageChrome` and the middlewares serve either.
protocol WebRequestContext: RequestContext {
    var webSessionToken: String? { get }
    var signedInUserId: UUID? { get }
    /// Set by `CSRFMiddleware` for a POST whose CSRF token checked out; nil everywhere else.
    var verifiedForm: WebForm? { get set }
}

extension WebRequestContext {
    /// The posted form. It exists only when `CSRFMiddleware` ran for this route and the token was right, so a form
    /// handler registered outside the web groups fails closed (403) instead of skipping the check.
    func form() throws -> WebForm {
        guard let verifiedForm else { throw WebSession.forbidden }
        return verifiedForm
    }
}

extension AppRequestContext: WebRequestContext {
    var signedInUserId: UUID? { userId }
}

/// A web request from a signed-in user (an account or a guest). The signed-in route group builds it; without a
/// user the request is sent to the welcome screen before any handler runs.
struct WebUserContext: ChildRequestContext, WebRequestContext {
    var coreContext: CoreRequestContextStorage
    let userId: UUID
    var userDataVersion: Int64?
    var profileSeen: ProfileSeen?
    var webSessionToken: String?
    var remoteAddress: String?
    var verifiedForm: WebForm?

    init(context: AppRequestContext) throws {
        guard let userId = context.userId else { throw WebRedirect(location: "/") }
        coreContext = context.coreContext
        self.userId = userId
        userDataVersion = context.userDataVersion
        profileSeen = context.profileSeen
        webSessionToken = context.webSessionToken
        remoteAddress = context.remoteAddress
        verifiedForm = context.verifiedForm
    }

    var signedInUserId: UUID? { userId }
    var requestDecoder: JSONDecoder { APICoding.decoder }
    var responseEncoder: JSONEncoder { APICoding.encoder }
}

/// Reads the body of every state-changing web request as a form and lets it through only with the right CSRF
/// token: the session's for a signed-in browser, the `wdiet_csrf` double-submit cookie before there is a session.
/// The handler gets the form from `context.form()`.
struct CSRFMiddleware<Context: WebRequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method.isUnsafe else { return try await next(request, context) }
        var context = context
        context.verifiedForm = try await WebForm.read(request, sessionToken: context.webSessionToken)
        return try await next(request, context)
    }
}

/// Turns what a page handler throws into the web app's error page (a redirect stays a redirect), logs what the
/// person is not shown, and records `error_logged` for a signed-in user (004 Story 5.2: "Error occurred").
struct WebErrorPageMiddleware<Context: WebRequestContext>: RouterMiddleware {
    let events: EventRecorder

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let redirect as WebRedirect {
            throw redirect
        } catch {
            let apiError = APIError.logged(error, path: request.uri.path, logger: context.logger)
            if let userId = context.signedInUserId {
                events.pageFailed(apiError, path: request.uri.path, userId: userId, logger: context.logger)
            }
            return try WebErrorPage.response(for: apiError, path: request.uri.path)
        }
    }
}
