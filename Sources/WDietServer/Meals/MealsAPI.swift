import Foundation
import Hummingbird
import WDietCore
import WDietFoodData
import WDietStore

/// `POST|GET /api/v1/meals`, `PATCH|DELETE /api/v1/meals/{id}`: the signed-in user's meals, and no one else's.
struct MealsAPI: Sendable {
    let services: AppServices

    /// Routes whose write checks the request's session in its own statement where the store can (PostgreSQL: the
    /// save in one round trip; `DeferredSessionCheck`): method and endpoint path as `SessionAuthMiddleware` sees them.
    static let routesCheckingTheirOwnSession: Set<SessionAuthMiddleware.Route> = [.init(method: .post, path: "/api/v1/meals")]

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("meals", use: create)
        group.get("meals", use: list)
        group.patch("meals/{id}", use: update)
        group.delete("meals/{id}", use: delete)
        group.post("meals/{id}/restore", use: restore)
    }

    var logging: MealLogging { MealLogging(services: services) }

    /// 201 with the meal. A client-generated `id` that the user already has returns that meal unchanged, so a
    /// retried upload logs nothing twice.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(MealBody.self, from: request, context: context)
        let id = try APIInput.uuid(body.id)
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileRequired }
        let saved = try await logging.log(body, id: id, userId: context.userId, profile: profile, logger: context.logger)
        return try Self.created(MealJSON(saved, profile: profile), request: request, context: context)
    }

    /// A local day's meals (`?date=`, default today in the user's zone), newest first, with their totals.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> MealDayJSON {
        let requested = try APIInput.date(query: "date", of: request)
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileMissing }
        let date = requested ?? LocalDate(services.now(), in: profile.timeZone)
        let meals = try await services.meals.meals(userId: context.userId, on: date)
        return MealDayJSON(
            date: date, meals: meals.map { MealJSON($0, profile: profile) }, totals: TotalsJSON(DailyTotals(meals: meals.map(\.meal)))
        )
    }

    /// A partial update: members left out stay as they are; `null` clears an optional macro.
    @Sendable func update(_ request: Request, context: AuthenticatedContext) async throws -> MealJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        let body = try await APIInput.decode(MealBody.self, from: request, context: context)
        let existing = try await logging.meal(userId: context.userId, id: id)
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileRequired }
        return MealJSON(try await logging.change(existing, with: body, userId: context.userId, profile: profile), profile: profile)
    }

    /// 204; the meal becomes a tombstone that sync still hands out. Unknown or someone else's: 404.
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await logging.delete(userId: context.userId, id: try APIInput.uuid(path: "id", of: context))
        return Response(status: .noContent)
    }

    /// "Undo" after a delete: the meal is back, with a new version. Unknown or someone else's: 404.
    @Sendable func restore(_ request: Request, context: AuthenticatedContext) async throws -> MealJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else { throw APIError.profileRequired }
        return MealJSON(try await logging.restore(userId: context.userId, id: id), profile: profile)
    }

    /// 201 with the meal and where it lives (the id in lowercase, as in the body).
    static func created(_ meal: MealJSON, request: Request, context: AuthenticatedContext) throws -> Response {
        var response = try meal.response(from: request, context: context).withStatus(.created)
        response.headers[.location] = "/api/v1/meals/\(meal.id)"
        return response
    }
}
