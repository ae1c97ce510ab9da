import Foundation
import Hummingbird
import WDietCore
import WDietFoodData
import WDietStore

/// The web app's meal logging (search, portions, manual entry), today's meals, and editing and deleting a meal.
///
/// Search and the portion step need script (they call the JSON API); every form also works as a plain POST, so a
/// manual meal, an edit and a delete go through without script, under the same rules as the API (`MealBody`).
struct MealPages: Sendable {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {
        router.get("/meals") { _, _ -> Response in throw WebRedirect(location: "/meals/today") }
        router.get("/meals/new") { _, context -> Response in
            let userId = try WebPage.requireUser(context)
            let stored = try await WebPage.requireProfile(services, userId: userId)
            return try logPage(LogMealPage(chrome: PageChrome(context: context, tab: .home), profile: stored.profile, now: services.now()))
        }
        router.post("/meals/new") { request, context -> Response in
            let userId = try WebPage.requireUser(context)
            let form = try await WebForm.read(request, context: context)
            let stored = try await WebPage.requireProfile(services, userId: userId)
            do {
                let body = try MealForm.body(from: form, members: MealForm.manualMembers)
                let meal = try body.manualMeal(id: TimeOrderedUUID.make(), now: services.now())
                // The form without script is the same moment as the API's save (004 Story 5.2).
                let event = services.events.mealLogged(source: "manual", loggedAt: meal.loggedAt, in: stored.profile.timeZone)
                let saved = try await services.meals.saveMeal(meal, userId: userId, timeZone: stored.profile.timeZone, recording: event)
                EventRecorder.logNotRecorded(event, error: saved.eventError, logger: context.logger)
                throw WebRedirect(location: "/meals/today?saved=\(saved.row.id.uuidString.lowercased())")
            } catch let error as APIError where error.status.code < 500 {
                var page = LogMealPage(chrome: PageChrome(context: context, tab: .home), profile: stored.profile, now: services.now())
                page.manual = ManualMealForm(form: form, errors: error.fields)
                page.manualSelected = true
                return try logPage(page, status: .unprocessableContent)
            }
        }
        router.get("/meals/today") { request, context -> Response in
            let userId = try WebPage.requireUser(context)
            let stored = try await WebPage.requireProfile(services, userId: userId)
            let now = services.now()
            let day = try await services.dashboards.dashboard(userId: userId, now: now, dataVersion: context.userDataVersion)
            let meals = try await services.meals.meals(userId: userId, on: day.date)
            var page = TodaysMealsPage(chrome: PageChrome(context: context, tab: .home), day: day, meals: meals, profile: stored.profile)
            let query = request.uri.queryParameters
            let notices = ["saved", "updated", "deleted"].reduce(into: [String: String]()) { result, key in
                if let value = query.get(key) { result[key] = value }
            }
            try await page.addNotice(query: notices, userId: userId, services: services, profile: stored.profile)
            return try WebTemplates.page("meals-today", page)
        }
        router.get("/meals/{id}/edit") { _, context -> Response in
            let userId = try WebPage.requireUser(context)
            let stored = try await WebPage.requireProfile(services, userId: userId)
            let meal = try await ownMeal(context, userId: userId)
            let food = try await catalogFood(of: meal.meal)
            let page = EditMealPage(chrome: PageChrome(context: context, tab: .home), stored: meal, food: food, profile: stored.profile)
            return try WebTemplates.page("meal-edit", page)
        }
        router.post("/meals/{id}/edit") { request, context -> Response in
            let userId = try WebPage.requireUser(context)
            let form = try await WebForm.read(request, context: context)
            let stored = try await WebPage.requireProfile(services, userId: userId)
            let existing = try await ownMeal(context, userId: userId)
            let food = try await catalogFood(of: existing.meal)
            do {
                let members = existing.meal.source == .database ? MealForm.foodEditMembers : MealForm.manualMembers
                let body = try MealForm.body(from: form, members: members)
                let meal = try body.patched(existing.meal, food: food)
                if meal != existing.meal {
                    _ = try await services.meals.saveMeal(meal, userId: userId, timeZone: stored.profile.timeZone)
                }
                throw WebRedirect(location: "/meals/today?updated=\(existing.id.uuidString.lowercased())")
            } catch let error as APIError where error.status.code < 500 {
                var page = EditMealPage(chrome: PageChrome(context: context, tab: .home), stored: existing, food: food, profile: stored.profile)
                page.apply(form: form, errors: error.fields)
                return try WebTemplates.page("meal-edit", page, status: .unprocessableContent)
            }
        }
        router.post("/meals/{id}/delete") { request, context -> Response in
            let userId = try WebPage.requireUser(context)
            _ = try await WebForm.read(request, context: context)
            let meal = try await ownMeal(context, userId: userId)
            _ = try await services.meals.deleteMeal(userId: userId, id: meal.id)
            throw WebRedirect(location: "/meals/today?deleted=\(meal.id.uuidString.lowercased())")
        }
        router.post("/meals/{id}/restore") { request, context -> Response in
            let userId = try WebPage.requireUser(context)
            _ = try await WebForm.read(request, context: context)
            guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw APIError.mealNotFound }
            do {
                _ = try await services.meals.restoreMeal(userId: userId, id: id)
            } catch StoreError.notFound {
                throw APIError.mealNotFound
            }
            throw WebRedirect(location: "/meals/today")
        }
    }

    func logPage(_ page: LogMealPage, status: HTTPResponse.Status = .ok) throws -> Response {
        try WebTemplates.page("meal-log", page, status: status)
    }

    /// The signed-in user's live meal named in the path; anyone else's (or a deleted one) is "not found".
    func ownMeal(_ context: AppRequestContext, userId: UUID) async throws -> StoredMeal {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)),
              let meal = try await services.meals.meal(userId: userId, id: id), meal.deletedAt == nil
        else { throw APIError.mealNotFound }
        return meal
    }

    /// A catalog meal's food, for rescaling a new amount; nil when the catalog no longer has it.
    func catalogFood(of meal: Meal) async throws -> Food? {
        guard meal.source == .database, let foodId = meal.foodId else { return nil }
        return try? await services.foods.food(id: foodId)
    }
}
