import Hummingbird
import WDietStore

/// Signs the request in when it carries a live session: `Authorization: Bearer <token>` for an API session, the
/// `wdiet_session` cookie for a web one. A missing, malformed, unknown or expired token leaves `userId` nil, so
/// public routes still answer and `AuthenticatedContext` routes answer 401.
struct SessionAuthMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let accounts: AccountService

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        if let presented = SessionToken.presented(in: request) {
            context.userId = try await accounts.userId(presenting: presented.token, as: presented.kind)
        }
        return try await next(request, context)
    }
}
