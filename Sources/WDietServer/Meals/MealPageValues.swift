import Foundation
import WDietCore
import WDietFoodData
import WDietStore

// The values the meal templates read (plain stored properties, as swift-mustache reflects them).

/// 000's eating window banner: "🍽️ Eating window: 12pm - 6pm", with a word on where "now" falls.
struct EatingWindowBanner: Sendable {
    var label: String
    var nowMessage: String
    var isOutside: Bool

    init(window: EatingWindow, now: Date, timeZone: TimeZone) {
        label = window.twelveHourLabel
        switch window.placement(of: now, in: timeZone) {
        case .inside:
            nowMessage = "You're inside your eating window."
            isOutside = false
        case .grace:
            nowMessage = "Close to your eating window: this meal counts as on time."
            isOutside = false
        case .outside:
            nowMessage = "Outside your eating window right now. You can still log this meal."
            isOutside = true
        }
    }
}

/// The manual entry form's values and inline messages.
struct ManualMealForm: Sendable {
    var name = ""
    var calories = ""
    var protein = ""
    var carbs = ""
    var fat = ""
    var nameError: String?
    var caloriesError: String?
    var proteinError: String?
    var carbsError: String?
    var fatError: String?
    var formError: String?

    init() {}

    init(form: WebForm, errors: [String: String]) {
        name = form.text("name")
        calories = form.text("calories")
        protein = form.text("protein")
        carbs = form.text("carbs")
        fat = form.text("fat")
        nameError = errors["name"]
        caloriesError = errors["calories"]
        proteinError = errors["protein"]
        carbsError = errors["carbs"]
        fatError = errors["fat"]
        if nameError == nil, caloriesError == nil, proteinError == nil, carbsError == nil, fatError == nil {
            formError = errors.values.sorted().first ?? "Please check the meal and try again."
        }
    }
}

/// A meal-type shortcut chip: fills the manual form's name.
struct MealTypeChip: Sendable {
    var label: String
    var emoji: String
}

/// `/meals/new`
struct LogMealPage: Sendable {
    var chrome: PageChrome
    var window: EatingWindowBanner
    var manual = ManualMealForm()
    var manualSelected = false
    var mealTypes = MealForm.mealTypes
    var calorieMessage = MealInput.Message.calories
    var macroMessage = MealInput.Message.macro
    var amountMessage = MealInput.Message.amount

    init(chrome: PageChrome, profile: Profile, now: Date) {
        self.chrome = chrome
        window = EatingWindowBanner(window: profile.eatingWindow, now: now, timeZone: profile.timeZone)
    }
}

/// One macro in the running totals: "😊 Protein 85g" (the smiley hidden before the day's first meal).
struct MacroTotal: Sendable {
    var key: String
    var label: String
    var grams: String
    var goal: String
    var smiley: String?
    /// "good", "fair" or "low", for screen readers.
    var verdict: String?

    init(_ progress: MacroProgress) {
        key = progress.macro.rawValue
        label = progress.macro == .fat ? "Fats" : progress.macro.rawValue.capitalized
        grams = "\(Int(progress.grams.rounded()))g"
        goal = "\(progress.goalGrams)g"
        smiley = progress.smiley?.rawValue
        verdict = progress.smiley.map {
            switch $0 {
            case .happy: "good"
            case .neutral: "fair"
            case .sad: "low"
            }
        }
    }
}

/// One row of today's meals: name, time, calories.
struct MealRow: Sendable {
    var id: String
    var name: String
    var time: String
    var calories: String
    /// Whole calories, for the script's running totals.
    var kcal: Double
}

/// `/meals/today`
struct TodaysMealsPage: Sendable {
    var chrome: PageChrome
    /// "1,250 / 1,900 cal"
    var caloriesText: String
    var summary: String
    var macros: [MacroTotal]
    var meals: [MealRow]
    var hasMeals: Bool
    var notice: String?
    var warning: String?
    var deletedId: String?

    init(chrome: PageChrome, day: DashboardDay, meals: [StoredMeal], profile: Profile) {
        self.chrome = chrome
        let eaten = WebFormat.grouped(day.totals.kcal), target = WebFormat.grouped(Double(day.targets.calories))
        caloriesText = "\(eaten) / \(target) cal"
        macros = day.macros.map(MacroTotal.init)
        let count = day.totals.mealCount
        summary = "Running totals: \(eaten) of \(target) calories. "
            + macros.map { "\($0.label) \($0.grams.dropLast()) grams\($0.verdict.map { ", \($0)" } ?? "")." }.joined(separator: " ")
            + " \(count) \(count == 1 ? "meal" : "meals") logged today."
        let clock = MealFormat.clock(in: profile.timeZone)
        self.meals = meals.map { stored in
            MealRow(
                id: stored.id.uuidString.lowercased(), name: stored.meal.name, time: clock.string(from: stored.meal.loggedAt),
                calories: "\(WebFormat.grouped(stored.meal.kcal)) cal", kcal: stored.meal.kcal
            )
        }
        hasMeals = !meals.isEmpty
    }

    /// What the page says after a save, an edit or a delete (`?saved=`, `?updated=`, `?deleted=`): the toast's
    /// words, and 000's gentle warning when the saved meal fell outside the window and its grace.
    mutating func addNotice(query: [String: String], userId: UUID, services: AppServices, profile: Profile) async throws {
        if let text = query["saved"] {
            notice = "Meal saved!"
            if let id = UUID(uuidString: text), let meal = try await services.meals.meal(userId: userId, id: id),
               profile.eatingWindow.placement(of: meal.meal.loggedAt, in: profile.timeZone) == .outside {
                warning = MealJSON.outsideWarning(profile.eatingWindow)
            }
        } else if query["updated"] != nil {
            notice = "Meal updated"
        } else if let text = query["deleted"], let id = UUID(uuidString: text) {
            notice = "Meal deleted"
            deletedId = id.uuidString.lowercased()
        }
    }
}

/// `/meals/{id}/edit`
struct EditMealPage: Sendable {
    var chrome: PageChrome
    var id: String
    var isFromFood: Bool
    var name: String
    var loggedAt: String
    var calories: String
    var protein: String
    var carbs: String
    var fat: String
    var grams: String
    /// The food's values per 100 g, for the live preview of a new amount (absent when the catalog lost the food).
    var per100g: Per100g?
    var nameError: String?
    var caloriesError: String?
    var proteinError: String?
    var carbsError: String?
    var fatError: String?
    var gramsError: String?
    var formError: String?
    var calorieMessage = MealInput.Message.calories
    var macroMessage = MealInput.Message.macro
    var amountMessage = MealInput.Message.amount

    struct Per100g: Sendable {
        var kcal: String
        var protein: String
        var carbs: String
        var fat: String
    }

    init(chrome: PageChrome, stored: StoredMeal, food: Food?, profile: Profile) {
        self.chrome = chrome
        let meal = stored.meal
        id = stored.id.uuidString.lowercased()
        isFromFood = meal.source == .database
        name = meal.name
        loggedAt = MealFormat.clock(in: profile.timeZone).string(from: meal.loggedAt)
        calories = MealFormat.plain(meal.kcal)
        protein = meal.protein.map(MealFormat.plain) ?? ""
        carbs = meal.carbs.map(MealFormat.plain) ?? ""
        fat = meal.fat.map(MealFormat.plain) ?? ""
        grams = meal.grams.map(MealFormat.plain) ?? ""
        per100g = food.map {
            Per100g(
                kcal: String($0.per100g.kcal), protein: String($0.per100g.protein),
                carbs: String($0.per100g.carbs), fat: String($0.per100g.fat)
            )
        }
    }

    /// What was typed, with the messages of a refused save.
    mutating func apply(form: WebForm, errors: [String: String]) {
        name = form.text("name")
        if isFromFood {
            grams = form.text("grams")
        } else {
            calories = form.text("calories")
            protein = form.text("protein")
            carbs = form.text("carbs")
            fat = form.text("fat")
        }
        nameError = errors["name"]
        caloriesError = errors["calories"]
        proteinError = errors["protein"]
        carbsError = errors["carbs"]
        fatError = errors["fat"]
        gramsError = errors["grams"]
        if [nameError, caloriesError, proteinError, carbsError, fatError, gramsError].allSatisfy({ $0 == nil }) {
            formError = errors.values.sorted().first ?? "Please check the meal and try again."
        }
    }
}

/// A posted meal form read as the API's `MealBody`, so the web and the API share one set of rules and messages.
enum MealForm {
    static let manualMembers = ["name", "calories", "protein", "carbs", "fat"]
    static let foodEditMembers = ["name", "grams"]

    static let mealTypes = [
        MealTypeChip(label: "Breakfast", emoji: "🍳"), MealTypeChip(label: "Lunch", emoji: "🥗"),
        MealTypeChip(label: "Dinner", emoji: "🍽️"), MealTypeChip(label: "Snack", emoji: "🍎"),
    ]

    /// The form's members as JSON strings; an empty number field is "nothing typed" (it clears an optional macro).
    static func body(from form: WebForm, members: [String]) throws -> MealBody {
        var object: [String: Any] = [:]
        for member in members {
            let text = form.text(member)
            if member == "name" || !text.isEmpty { object[member] = text } else { object[member] = NSNull() }
        }
        let data = try JSONSerialization.data(withJSONObject: object)
        do {
            return try APICoding.decoder.decode(MealBody.self, from: data)
        } catch let error as DecodingError {
            let refused = APIInput.badRequest(for: error)
            throw InvalidInput(refused.fields, message: refused.message)
        }
    }
}

enum MealFormat {
    /// 46.5 → "46.5", 150.0 → "150": a value as a person would type it.
    static func plain(_ value: Double) -> String {
        let tenth = Units.tenth(value)
        return tenth == tenth.rounded() ? String(Int(tenth)) : String(tenth)
    }

    /// "12:30 PM" in the user's zone.
    static func clock(in timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "h:mm a"
        return formatter
    }
}
