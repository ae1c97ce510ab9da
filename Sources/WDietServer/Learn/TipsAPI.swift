import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `GET /api/v1/tips`, `POST /api/v1/tips/{id}/dismiss`: which of the coach's tips the signed-in user has
/// dismissed. Pages show every tip not in the list; the ℹ️ buttons show a tip again without undismissing it.
struct TipsAPI: Sendable {
    let services: AppServices

    struct TipsJSON: ResponseEncodable, Sendable {
        /// Tip ids, in a stable order.
        var dismissed: [CoachTip]
    }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("tips", use: list)
        group.post("tips/{id}/dismiss", use: dismiss)
    }

    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> TipsJSON {
        TipsJSON(dismissed: try await services.tips.dismissedTips(userId: context.userId))
    }

    /// 204 whether or not the tip was dismissed before; an id the product does not know: 404.
    @Sendable func dismiss(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        guard let tip = context.parameters.get("id").flatMap(CoachTip.init(rawValue:)) else { throw APIError.tipNotFound }
        try await services.tips.dismissTip(tip, userId: context.userId)
        return Response(status: .noContent)
    }
}

extension APIError {
    static var tipNotFound: APIError { APIError.notFound(Strings.current("tips.notFound")) }
}
