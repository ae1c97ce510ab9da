import Foundation
import Hummingbird
import WDietCore
import WDietFoodData
import WDietStore

/// `POST|GET /api/v1/meals`, `PATCH|DELETE /api/v1/meals/{id}`: the signed-in user's meals, and no one else's.
struct MealsAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.post("meals", use: create)
        group.get("meals", use: list)
        group.patch("meals/{id}", use: update)
        group.delete("meals/{id}", use: delete)
        group.post("meals/{id}/restore", use: restore)
    }

    /// 201 with the meal. A client-generated `id` that the user already has returns that meal unchanged, so a
    /// retried upload logs nothing twice.
    @Sendable func create(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let body = try await APIInput.decode(MealBody.self, from: request, context: context)
        let id = try APIInput.uuid(body.id)
        guard let profile = try await services.profiles.profile(userId: context.userId)?.profile else { throw APIError.profileRequired }
        if let id, let existing = try await services.meals.meal(userId: context.userId, id: id) {
            return try Self.created(MealJSON(existing, profile: profile), request: request, context: context)
        }
        let meal: Meal
        if body.isFromCatalog {
            guard let foodId = body.foodId.value?.trimmingCharacters(in: .whitespaces), !foodId.isEmpty else {
                throw APIError.invalidFields(["foodId": StoreValidation.Message.databaseMealIncomplete])
            }
            let food = try await catalogFood(id: foodId)
            meal = try body.foodMeal(id: id ?? TimeOrderedUUID.make(), food: food, now: services.now())
        } else {
            meal = try body.manualMeal(id: id ?? TimeOrderedUUID.make(), now: services.now())
        }
        let event = services.events.mealLogged(
            source: body.isFromCatalog ? "database" : "manual", loggedAt: meal.loggedAt, in: profile.timeZone)
        let saved = try await services.meals.saveMeal(meal, userId: context.userId, timeZone: profile.timeZone, recording: event)
        EventRecorder.logNotRecorded(event, error: saved.eventError, logger: context.logger)
        return try Self.created(MealJSON(saved.row, profile: profile), request: request, context: context)
    }

    /// A local day's meals (`?date=`, default today in the user's zone), newest first, with their totals.
    @Sendable func list(_ request: Request, context: AuthenticatedContext) async throws -> MealDayJSON {
        let requested = try APIInput.date(query: "date", of: request)
        guard let profile = try await services.profiles.profile(userId: context.userId)?.profile else { throw APIError.profileMissing }
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
        guard let existing = try await services.meals.meal(userId: context.userId, id: id) else { throw APIError.mealNotFound }
        guard let profile = try await services.profiles.profile(userId: context.userId)?.profile else { throw APIError.profileRequired }
        var food: Food?
        if existing.meal.source == .database, body.amountIsPresent, let foodId = existing.meal.foodId {
            food = try? await services.foods.food(id: foodId)
            if food == nil, body.portion.isPresent {
                // A portion needs the food's measures: without the catalog only grams can change.
                guard try await services.foods.isLoaded() else {
                    throw APIError(.serviceUnavailable, code: "catalog_missing", message: "Search unavailable — enter the amount in grams")
                }
            }
        }
        let meal = try body.patched(existing.meal, food: food)
        guard meal != existing.meal else { return MealJSON(existing, profile: profile) }
        let saved = try await services.meals.saveMeal(meal, userId: context.userId, timeZone: profile.timeZone)
        return MealJSON(saved, profile: profile)
    }

    /// 204; the meal becomes a tombstone that sync still hands out. Unknown or someone else's: 404.
    @Sendable func delete(_ request: Request, context: AuthenticatedContext) async throws -> Response {
        let id = try APIInput.uuid(path: "id", of: context)
        do {
            try await services.meals.deleteMeal(userId: context.userId, id: id)
        } catch StoreError.notFound {
            throw APIError.mealNotFound
        }
        return Response(status: .noContent)
    }

    /// "Undo" after a delete: the meal is back, with a new version. Unknown or someone else's: 404.
    @Sendable func restore(_ request: Request, context: AuthenticatedContext) async throws -> MealJSON {
        let id = try APIInput.uuid(path: "id", of: context)
        guard let profile = try await services.profiles.profile(userId: context.userId)?.profile else { throw APIError.profileRequired }
        do {
            return MealJSON(try await services.meals.restoreMeal(userId: context.userId, id: id), profile: profile)
        } catch StoreError.notFound {
            throw APIError.mealNotFound
        }
    }

    /// The catalog's food; 503 when there is no catalog, 422 when it has no such food.
    func catalogFood(id: String) async throws -> Food {
        if let food = try await services.foods.food(id: id) { return food }
        guard try await services.foods.isLoaded() else {
            throw StoreError.catalogMissing("Search unavailable — enter manually")
        }
        throw APIError.invalidFields(["foodId": MealBody.Message.foodNotFound])
    }

    /// 201 with the meal and where it lives (the id in lowercase, as in the body).
    static func created(_ meal: MealJSON, request: Request, context: AuthenticatedContext) throws -> Response {
        var response = try meal.response(from: request, context: context).withStatus(.created)
        response.headers[.location] = "/api/v1/meals/\(meal.id)"
        return response
    }
}
