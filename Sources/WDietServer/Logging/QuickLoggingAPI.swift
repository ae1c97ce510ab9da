import Foundation
import Hummingbird
import WDietCore
import WDietFoodData
import WDietStore

/// Issue 17's logging API for the signed-in user: `GET /foods/recent`; `GET|POST /favourites`,
/// `DELETE /favourites/{id}`; `GET|POST /saved-meals`, `GET|PUT|DELETE /saved-meals/{id}`,
/// `POST /saved-meals/{id}/log`; `POST /meals/batch`; `POST /meals/copy`. The rules are `QuickLogging`'s.
struct QuickLoggingAPI: Sendable {
    let services: AppServices

    var quick: QuickLogging { QuickLogging(services: services) }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("foods/recent", use: recents)
        group.get("favourites", use: favourites)
        group.post("favourites", use: addFavourite)
        group.delete("favourites/{id}", use: removeFavourite)
        group.get("saved-meals", use: savedMeals)
        group.post("saved-meals", use: createSavedMeal)
        group.get("saved-meals/{id}", use: savedMeal)
        group.put("saved-meals/{id}", use: replaceSavedMeal)
        group.delete("saved-meals/{id}", use: removeSavedMeal)
        group.post("saved-meals/{id}/log", use: logSavedMeal)
        group.post("meals/batch", use: batch)
        group.post("meals/copy", use: copy)
    }

    func profile(_ context: AuthenticatedContext) async throws -> Profile {
        guard let profile = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen)?.profile else {
            throw APIError.profileRequired
        }
        return profile
    }

    // MARK: - Recents

    /// `?limit=` 1–50, default 20.
    @Sendable func recents(_ request: Request, context: AuthenticatedContext) async throws -> RecentFoodsJSON {
        var limit = 20
        if let text = request.uri.queryParameters.get("limit") {
            guard let value = Int(text), (1...50).contains(value) else {
                throw APIError.badRequest(Strings.current("sync.limitInvalid", ["max": "50"]), fields: ["limit": Strings.current("sync.limitInvalid", ["max": "50"])])
            }
            limit = value
        }
        let profile = try await profile(context)
        let entries = try await quick.recents(userId: context.userId, profile: profile, limit: limit)
        let starred = try await quick.favourites(userId: context.userId).map(\.0)
        return RecentFoodsJSON(slot: MealSlot(services.now(), in: profile.timeZone), entries: entries, starred: starred, timeZone: profile.timeZone)
    }

    // MARK: - Favourites

    @Sendable func favourites(_ request: Request, context: AuthenticatedContext) async throws -> FavouritesJSON {
        var result: [FavouriteJSON] = []
        for (favourite, version) in try await quick.favourites(userId: context.userId) {
            result.append(FavouriteJSON(favourite, version: version, catalogValues: try await catalogValues(favourite)))
        }
        return FavouritesJSON(favourites: result)
    }

    /// 201 with the favourite; 200 with the one the user already has (the same id, or the same catalog food).
    @Sendable func addFavourite(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(FavouriteBody.self, from: request, context: context)
        let added = try await quick.addFavourite(body, userId: context.userId)
        let json = FavouriteJSON(added.favourite, version: added.version, catalogValues: try await catalogValues(added.favourite))
        var response = try json.response(from: request, context: context).withStatus(added.created ? .created : .ok)
        response.headers[.location] = "/api/v1/favourites/\(json.id)"
        return response
    }

    @Sendable func removeFavourite(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await quick.removeFavourite(id: try APIInput.uuid(path: "id", of: context), userId: context.userId)
        return Response(status: .noContent)
    }

    /// A catalog favourite's values for its grams (else 100 g); nil for a manual one or without the catalog.
    func catalogValues(_ favourite: Favourite) async throws -> Nutrients? {
        guard let foodId = favourite.foodId, let food = try? await services.foods.food(id: foodId) else { return nil }
        return food.per100g.scaled(toGrams: favourite.grams ?? 100)
    }

    // MARK: - Saved meals

    @Sendable func savedMeals(_ request: Request, context: AuthenticatedContext) async throws -> SavedMealsJSON {
        SavedMealsJSON(savedMeals: try await quick.savedMeals(userId: context.userId).map { SavedMealJSON($0.0, version: $0.1) })
    }

    @Sendable func savedMeal(_ request: Request, context: AuthenticatedContext) async throws -> SavedMealJSON {
        let (saved, version) = try await quick.savedMeal(id: try APIInput.uuid(path: "id", of: context), userId: context.userId)
        return SavedMealJSON(saved, version: version)
    }

    /// 201 with the saved meal; 200 with the one the user already has under this client id.
    @Sendable func createSavedMeal(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(SavedMealBody.self, from: request, context: context)
        let result = try await quick.saveSavedMeal(body, existingId: nil, userId: context.userId)
        let json = SavedMealJSON(result.saved, version: result.version)
        var response = try json.response(from: request, context: context).withStatus(result.created ? .created : .ok)
        response.headers[.location] = "/api/v1/saved-meals/\(json.id)"
        return response
    }

    /// Replaces the name, items, servings and slot.
    @Sendable func replaceSavedMeal(_ request: Request, context: AuthenticatedContext) async throws -> SavedMealJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        let body = try await APIInput.decode(SavedMealBody.self, from: request, context: context)
        let result = try await quick.saveSavedMeal(body, existingId: id, userId: context.userId)
        return SavedMealJSON(result.saved, version: result.version)
    }

    @Sendable func removeSavedMeal(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        try await quick.removeSavedMeal(id: try APIInput.uuid(path: "id", of: context), userId: context.userId)
        return Response(status: .noContent)
    }

    /// 201 with the meals made, one per item.
    @Sendable func logSavedMeal(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try APIInput.uuid(path: "id", of: context)
        let body = try await APIInput.decode(LogSavedMealBody.self, from: request, context: context)
        let profile = try await profile(context)
        let meals = try await quick.logSavedMeal(id: id, body: body, userId: context.userId, profile: profile, logger: context.logger)
        return try LoggedMealsJSON(meals: meals.map { MealJSON($0, profile: profile) }).response(from: request, context: context).withStatus(.created)
    }

    // MARK: - Several at once, copies

    @Sendable func batch(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(MealBatchBody.self, from: request, context: context)
        let profile = try await profile(context)
        let meals = try await quick.logBatch(body, userId: context.userId, profile: profile, logger: context.logger)
        return try LoggedMealsJSON(meals: meals.map { MealJSON($0, profile: profile) }).response(from: request, context: context).withStatus(.created)
    }

    @Sendable func copy(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(MealCopyBody.self, from: request, context: context)
        let profile = try await profile(context)
        let meals = try await quick.copy(body, userId: context.userId, profile: profile, logger: context.logger)
        return try LoggedMealsJSON(meals: meals.map { MealJSON($0, profile: profile) }).response(from: request, context: context).withStatus(.created)
    }
}
