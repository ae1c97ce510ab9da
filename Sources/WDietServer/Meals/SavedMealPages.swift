import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// Saved meals on the web (issue 17): `/meals/saved` lists them with their nutrients per serving, and
/// `/meals/saved/{id}` edits one (rename, amounts, servings made, remove foods, delete). Plain HTML forms under
/// `QuickLogging`'s rules; logging one is on Log Meal (one tap, with servings).
struct SavedMealPages: Sendable {
    let services: AppServices

    var quick: QuickLogging { QuickLogging(services: services) }

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/meals/saved", use: list)
        group.get("/meals/saved/{id}", use: editForm)
        group.post("/meals/saved/{id}", use: save)
        group.post("/meals/saved/{id}/delete", use: delete)
    }

    @Sendable func list(_ request: Request, context: WebUserContext) async throws -> Response {
        _ = try await WebPage.requireProfile(services, userId: context.userId)
        let saved = try await quick.savedMeals(userId: context.userId).map(\.0).sorted { $0.name.localizedStandardCompare($1.name) == .orderedAscending }
        var page = SavedMealsPage(chrome: PageChrome(context: context, tab: .home), meals: saved.map(SavedMealCard.init))
        let query = request.uri.queryParameters
        if query.get("updated") != nil { page.notice = Strings.current("quicklog.savedMealUpdated") }
        if query.get("deleted") != nil { page.notice = Strings.current("quicklog.savedMealDeleted") }
        return try WebTemplates.page("saved-meals", page)
    }

    @Sendable func editForm(_ request: Request, context: WebUserContext) async throws -> Response {
        _ = try await WebPage.requireProfile(services, userId: context.userId)
        let (saved, version) = try await quick.savedMeal(id: try id(context), userId: context.userId)
        return try WebTemplates.page(
            "saved-meal-edit", SavedMealEditPage(chrome: PageChrome(context: context, tab: .home), saved: saved, version: version))
    }

    /// Saves the form: the kept foods at their amounts, the name and the servings made.
    @Sendable func save(_ request: Request, context: WebUserContext) async throws -> Response {
        let form = try context.form()
        _ = try await WebPage.requireProfile(services, userId: context.userId)
        let savedId = try id(context)
        let (saved, version) = try await quick.savedMeal(id: savedId, userId: context.userId)
        let shownVersion = Int64(form.text("version"))
        if let shownVersion, shownVersion != version {
            // Changed on another device since this form was shown: show it as it is now rather than apply amounts
            // numbered for foods that may have moved.
            var page = SavedMealEditPage(chrome: PageChrome(context: context, tab: .home), saved: saved, version: version)
            page.formError = Strings.current("logging.changedElsewhere")
            return try WebTemplates.page("saved-meal-edit", page, status: .conflict)
        }
        var items: [[String: Any]] = []
        var kept: [Int] = []
        for (index, item) in saved.items.enumerated() where form.text("item\(index)Remove").isEmpty {
            let amount = MealFormat.typedNumber(form.text("item\(index)Amount"))
            var body: [String: Any] = [:]
            if let foodId = item.foodId {
                body["foodId"] = foodId
                if let portion = item.portion {
                    body["portion"] = portion
                    body["quantity"] = amount
                } else {
                    body["grams"] = amount
                }
            } else {
                body["name"] = item.name
                body["calories"] = amount
                for (key, value) in [("protein", item.protein), ("carbs", item.carbs), ("fat", item.fat), ("fiber", item.fiber)] {
                    if let value { body[key] = value }
                }
            }
            items.append(body)
            kept.append(index)
        }
        var object: [String: Any] = ["name": form.text("name"), "servings": MealFormat.typedNumber(form.text("servings")), "items": items]
        if let shownVersion { object["baseVersion"] = shownVersion }
        if let slot = saved.slot { object["slot"] = slot.rawValue }
        do {
            let body = try APICoding.decoder.decode(SavedMealBody.self, from: try JSONSerialization.data(withJSONObject: object))
            _ = try await quick.saveSavedMeal(body, existingId: savedId, userId: context.userId)
            throw WebRedirect(location: "/meals/saved?updated=1")
        } catch let invalid as InvalidInput {
            var page = SavedMealEditPage(chrome: PageChrome(context: context, tab: .home), saved: saved, version: version)
            page.apply(form: form, errors: invalid.fields, kept: kept)
            return try WebTemplates.page("saved-meal-edit", page, status: .unprocessableContent)
        }
    }

    @Sendable func delete(_ request: Request, context: WebUserContext) async throws -> Response {
        _ = try context.form()
        try await quick.removeSavedMeal(id: try id(context), userId: context.userId)
        throw WebRedirect(location: "/meals/saved?deleted=1")
    }

    func id(_ context: WebUserContext) throws -> UUID {
        guard let id = context.parameters.get("id").flatMap(UUID.init(uuidString:)) else { throw QuickLogging.savedMealNotFound }
        return id
    }
}

/// "per serving: 450 cal · P 20g · C 60g · F 12g"
func perServingText(_ saved: SavedMeal) -> String {
    let strings = Strings.current
    let n = saved.perServing.rounded()
    return strings("quicklog.perServing", [
        "kcal": strings.number(n.kcal.rounded()), "protein": strings.number(n.protein, fractionDigits: 1, trimmingZeros: true),
        "carbs": strings.number(n.carbs, fractionDigits: 1, trimmingZeros: true), "fat": strings.number(n.fat, fractionDigits: 1, trimmingZeros: true)])
}

struct SavedMealCard: Sendable {
    var id: String
    var name: String
    var perServing: String
    var detail: String
    var editLabel: String

    init(_ saved: SavedMeal) {
        let strings = Strings.current
        id = saved.id.apiText
        name = saved.name
        perServing = perServingText(saved)
        detail = strings("quicklog.savedMealMakes", [
            "foods": strings("quicklog.foodCount", count: saved.items.count),
            "servings": strings("quicklog.servingCount", count: Int(saved.servings.rounded()), ["count": strings.number(saved.servings, fractionDigits: 1, trimmingZeros: true)])])
        editLabel = strings("quicklog.editSavedNamed", ["name": saved.name])
    }
}

/// `/meals/saved`
struct SavedMealsPage: Sendable {
    var chrome: PageChrome
    var meals: [SavedMealCard]
    var notice: String?
    var isEmpty: Bool

    init(chrome: PageChrome, meals: [SavedMealCard]) {
        self.chrome = chrome
        self.meals = meals
        isEmpty = meals.isEmpty
    }
}

/// `/meals/saved/{id}`
struct SavedMealEditPage: Sendable {
    struct Item: Sendable {
        var index: Int
        var name: String
        var amountLabel: String
        var amount: String
        var error: String?
        var removed = false
    }

    var chrome: PageChrome
    var id: String
    var name: String
    var servings: String
    var perServing: String
    var items: [Item]
    var nameError: String?
    var servingsError: String?
    var formError: String?
    var deleteLabel: String
    /// The version the form shows: a save from it is refused when the saved meal changed since (another device),
    /// because the form's foods are numbered as they were then.
    var version: String

    init(chrome: PageChrome, saved: SavedMeal, version: Int64) {
        let strings = Strings.current
        self.chrome = chrome
        self.version = String(version)
        id = saved.id.apiText
        name = saved.name
        servings = MealFormat.plain(saved.servings)
        perServing = perServingText(saved)
        deleteLabel = strings("quicklog.deleteSavedNamed", ["name": saved.name])
        items = saved.items.enumerated().map { index, item in
            let label: String
            let amount: String
            if item.foodId != nil, let portion = item.portion {
                label = strings("quicklog.quantityOf", ["portion": portion])
                amount = MealFormat.plain(item.quantity ?? 1)
            } else if item.foodId != nil {
                label = strings("meals.amountGrams")
                amount = MealFormat.plain(item.grams ?? 100)
            } else {
                label = strings("meals.caloriesLabel")
                amount = MealFormat.plain(item.kcal)
            }
            return Item(index: index, name: item.name, amountLabel: label, amount: amount)
        }
    }

    /// What was typed, with the messages: `items.N.member` names the Nth food kept, which `kept` maps back.
    mutating func apply(form: WebForm, errors: [String: String], kept: [Int]) {
        name = form.text("name")
        servings = form.text("servings")
        nameError = errors["name"]
        servingsError = errors["servings"]
        for index in items.indices {
            items[index].amount = form.text("item\(index)Amount")
            items[index].removed = !form.text("item\(index)Remove").isEmpty
        }
        for (key, message) in errors where key.hasPrefix("items.") {
            let parts = key.split(separator: ".")
            if parts.count >= 2, let position = Int(parts[1]), position < kept.count { items[kept[position]].error = message }
        }
        if let items = errors["items"] { formError = items }
        if nameError == nil, servingsError == nil, formError == nil, !errors.keys.contains(where: { $0.hasPrefix("items.") }) {
            formError = errors.values.sorted().first ?? Strings.current("meals.checkAndRetry")
        }
    }
}
