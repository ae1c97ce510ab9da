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

    var logging: MealLogging { MealLogging(services: services) }

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/meals") { _, _ -> Response in throw WebRedirect(location: "/meals/today") }
        group.get("/meals/new", use: logForm)
        group.post("/meals/new", use: logManualMeal)
        group.get("/meals/today", use: today)
        group.get("/meals/{id}/edit", use: editForm)
        group.post("/meals/{id}/edit", use: saveEdit)
        group.post("/meals/{id}/delete", use: delete)
        group.post("/meals/{id}/restore", use: restore)
        SavedMealPages(services: services).register(on: group)
        group.post("/meals/copy", use: copyToToday)
    }

    /// Log Meal: the slot, recents, favourites, saved meals, search, portions and the manual form; `?date=` logs onto
    /// a past day (a year back at most).
    @Sendable func logForm(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let now = services.now()
        let day = try Self.logDay(request.uri.queryParameters.get("date"), today: LocalDate(now, in: stored.profile.timeZone))
        var page = LogMealPage(chrome: PageChrome(context: context, tab: .home), profile: stored.profile, now: now, day: day)
        try await page.addQuickLogging(services: services, userId: context.userId, profile: stored.profile, day: day)
        return try logPage(page)
    }

    /// The day of `?date=YYYY-MM-DD`: today when absent; the 400 page of `PageDay` (the dashboard's and the meals list's
    /// rule) for a day that is not a date, in the future, or more than 365 days back.
    static func logDay(_ text: String?, today: LocalDate) throws -> LocalDate {
        try PageDay(text: text, today: today).date
    }

    /// "Copy to today" on a past day's meals: one meal (`mealId`) or the whole day (`fromDate`), each copy at the same
    /// local time today; back to today's meals with the first copy's notice.
    @Sendable func copyToToday(_ request: Request, context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let mealId = form.text("mealId")
        var body = MealCopyBody()
        body.fromDate = LocalDate(iso: form.text("fromDate"))
        body.mealIds = mealId.isEmpty ? nil : [mealId]
        body.requestId = form.text("requestId").isEmpty ? nil : form.text("requestId")
        let copies: [StoredMeal]
        do {
            copies = try await QuickLogging(services: services).copy(body, userId: context.userId, profile: stored.profile, logger: context.logger)
        } catch let invalid as InvalidInput {
            throw APIError.badRequest(invalid.fields.values.sorted().first ?? Strings.current("meals.checkAndRetry"))
        }
        guard let first = copies.first else { throw APIError.badRequest(Strings.current("logging.copyNothing")) }
        throw WebRedirect(location: "/meals/today?saved=\(first.id.uuidString.lowercased())")
    }

    /// The manual form without script: the same save, rules and `meal_logged` as the API's.
    @Sendable func logManualMeal(_ request: Request, context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        do {
            let body = try MealForm.body(from: form, members: MealForm.manualMembers)
            let saved = try await logging.log(body, id: nil, userId: context.userId, profile: stored.profile, logger: context.logger)
            throw WebRedirect(location: "/meals/today?saved=\(saved.id.uuidString.lowercased())")
        } catch let invalid as InvalidInput {
            var page = LogMealPage(chrome: PageChrome(context: context, tab: .home), profile: stored.profile, now: services.now())
            try await page.addQuickLogging(services: services, userId: context.userId, profile: stored.profile,
                                           day: LocalDate(services.now(), in: stored.profile.timeZone))
            page.manual = ManualMealForm(form: form, errors: invalid.fields)
            page.manualSelected = true
            return try logPage(page, status: .unprocessableContent)
        }
    }

    /// Today's meals with their totals, and the notice of what was just saved, changed or deleted.
    @Sendable func today(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let now = services.now()
        let shown = try PageDay.from(request, today: LocalDate(now, in: stored.profile.timeZone))
        async let day = services.dashboards.dashboard(
            userId: context.userId, now: shown.instant(now: now, in: stored.profile.timeZone), dataVersion: context.userDataVersion)
        async let meals = services.meals.meals(userId: context.userId, on: shown.date)
        var page = TodaysMealsPage(
            chrome: PageChrome(context: context, tab: .home), day: try await day, meals: try await meals, profile: stored.profile, shown: shown)
        let query = request.uri.queryParameters
        let notices = ["saved", "updated", "deleted"].reduce(into: [String: String]()) { result, key in
            if let value = query.get(key) { result[key] = value }
        }
        try await page.addNotice(query: notices, userId: context.userId, services: services, profile: stored.profile)
        return try WebTemplates.page("meals-today", page)
    }

    @Sendable func editForm(_ request: Request, context: WebUserContext) async throws -> Response {
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let meal = try await ownMeal(context)
        let food = try await catalogFood(of: meal.meal)
        var page = EditMealPage(chrome: PageChrome(context: context, tab: .home), stored: meal, food: food, profile: stored.profile)
        page.dayQuery = dayQuery(of: meal, profile: stored.profile)
        return try WebTemplates.page("meal-edit", page)
    }

    @Sendable func saveEdit(_ request: Request, context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let stored = try await WebPage.requireProfile(services, userId: context.userId)
        let existing = try await ownMeal(context)
        do {
            let members = existing.meal.source == .database ? MealForm.foodEditMembers : MealForm.manualMembers
            // The time is changed on the meal's own day (issue 17: a past meal keeps its day).
            var body = try MealForm.body(from: form, members: members)
            body.loggedAt = try MealDayForm.loggedAt(
                from: form, on: existing.localDate, in: stored.profile.timeZone, current: existing.meal.loggedAt)
            let changed = try await logging.change(existing, with: body, userId: context.userId, profile: stored.profile)
            throw WebRedirect(location: "/meals/today?updated=\(existing.id.uuidString.lowercased())" + dayMember(of: changed, profile: stored.profile))
        } catch let invalid as InvalidInput {
            let food = try await catalogFood(of: existing.meal)
            var page = EditMealPage(chrome: PageChrome(context: context, tab: .home), stored: existing, food: food, profile: stored.profile)
            page.dayQuery = dayQuery(of: existing, profile: stored.profile)
            page.apply(form: form, errors: invalid.fields)
            return try WebTemplates.page("meal-edit", page, status: .unprocessableContent)
        }
    }

    @Sendable func delete(_ request: Request, context: WebUserContext) async throws -> Response {
        let meal = try await ownMeal(context)
        try await logging.delete(userId: context.userId, id: meal.id)
        let profile = try await WebPage.requireProfile(services, userId: context.userId).profile
        throw WebRedirect(location: "/meals/today?deleted=\(meal.id.uuidString.lowercased())" + dayMember(of: meal, profile: profile))
    }

    @Sendable func restore(_ request: Request, context: WebUserContext) async throws -> Response {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw MealLogging.notFound }
        let restored = try await logging.restore(userId: context.userId, id: id)
        let profile = try await WebPage.requireProfile(services, userId: context.userId).profile
        throw WebRedirect(location: "/meals/today" + dayQuery(of: restored, profile: profile))
    }

    /// `?date=…` of the meal's day when that is not today (the day's list it returns to), else nothing.
    func dayQuery(of meal: StoredMeal, profile: Profile) -> String {
        meal.localDate == LocalDate(services.now(), in: profile.timeZone) ? "" : "?date=\(meal.localDate.iso)"
    }

    /// The same as a further query member: `&date=…`.
    func dayMember(of meal: StoredMeal, profile: Profile) -> String {
        let query = dayQuery(of: meal, profile: profile)
        return query.isEmpty ? "" : "&" + query.dropFirst()
    }

    func logPage(_ page: LogMealPage, status: HTTPResponse.Status = .ok) throws -> Response {
        var page = page
        page.labelScanAvailable = services.labelScan.isAvailable
        return try WebTemplates.page("meal-log", page, status: status)
    }

    /// The signed-in user's live meal named in the path; anyone else's (or a deleted one) is "not found".
    func ownMeal(_ context: WebUserContext) async throws -> StoredMeal {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw MealLogging.notFound }
        return try await logging.meal(userId: context.userId, id: id)
    }

    /// A catalog meal's food, for the edit form's portions; nil when the catalog no longer has it.
    func catalogFood(of meal: Meal) async throws -> Food? {
        guard meal.source == .database, let foodId = meal.foodId else { return nil }
        return try? await services.foods.food(id: foodId)
    }
}
