import Foundation
import WDietCore
import WDietFoodData
import WDietStore

// The values the meal templates read (plain stored properties, as swift-mustache reflects them).

/// 000's eating window banner: "🍽️ Eating window: 12pm - 6pm" ("Essensfenster: 12:00–18:00"), with a word on
/// where "now" falls.
struct EatingWindowBanner: Sendable {
    var text: String
    var nowMessage: String
    var isOutside: Bool

    init(window: EatingWindow, now: Date, timeZone: TimeZone) {
        let strings = Strings.current
        text = strings("meals.eatingWindowLabel", ["window": window.twelveHourLabel])
        switch window.placement(of: now, in: timeZone) {
        case .inside:
            nowMessage = strings("meals.windowInside")
            isOutside = false
        case .grace:
            nowMessage = strings("meals.windowGrace")
            isOutside = false
        case .outside:
            nowMessage = strings("meals.windowOutside")
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
    var fiber = ""
    var nameError: String?
    var caloriesError: String?
    var proteinError: String?
    var carbsError: String?
    var fatError: String?
    var fiberError: String?
    var formError: String?

    init() {}

    init(form: WebForm, errors: [String: String]) {
        name = form.text("name")
        calories = form.text("calories")
        protein = form.text("protein")
        carbs = form.text("carbs")
        fat = form.text("fat")
        fiber = form.text("fiber")
        nameError = errors["name"]
        caloriesError = errors["calories"]
        proteinError = errors["protein"]
        carbsError = errors["carbs"]
        fatError = errors["fat"]
        fiberError = errors["fiber"]
        if nameError == nil, caloriesError == nil, proteinError == nil, carbsError == nil, fatError == nil, fiberError == nil {
            formError = errors.values.sorted().first ?? Strings.current("meals.checkAndRetry")
        }
    }
}

/// One macro in the running totals: "😊 Protein 85g" / "😊 Eiweiß 85 g" (the smiley hidden before the day's first meal).
struct MacroTotal: Sendable {
    var key: String
    var label: String
    /// "85g" / "85 g"
    var grams: String
    var smiley: String?
    /// What a screen reader says: "Protein 85 grams, good."
    var spoken: String

    init(_ progress: MacroProgress) {
        let strings = Strings.current
        key = progress.macro.rawValue
        label = strings("meals.\(progress.macro.rawValue)")
        let amount = strings.number(progress.grams)
        grams = strings("meals.gramsCompact", ["grams": amount])
        smiley = progress.smiley?.rawValue
        if let verdict = progress.smiley.map({ Self.verdict($0) }) {
            spoken = strings("meals.summaryMacroVerdict", ["label": label, "grams": amount, "verdict": verdict])
        } else {
            spoken = strings("meals.summaryMacro", ["label": label, "grams": amount])
        }
    }

    /// "good", "fair" or "low", for screen readers.
    static func verdict(_ smiley: MacroProgress.Smiley) -> String {
        switch smiley {
        case .happy: Strings.current("meals.verdictGood")
        case .neutral: Strings.current("meals.verdictFair")
        case .sad: Strings.current("meals.verdictLow")
        }
    }
}

/// One row of today's meals: name, time, calories.
struct MealRow: Sendable {
    var id: String
    var name: String
    var time: String
    /// "1,250 cal" / "1.250 kcal"
    var calories: String
    /// Whole calories, for the script's running totals.
    var kcal: Double
    /// "Pasta, 10:00 AM, 1,250 cal. Edit"
    var editLabel: String
    /// "Delete Pasta"
    var deleteLabel: String

    init(id: String, name: String, time: String, kcal: Double) {
        let strings = Strings.current
        self.id = id
        self.name = name
        self.time = time
        self.kcal = kcal
        calories = strings("meals.rowCalories", ["calories": strings.number(kcal)])
        editLabel = strings("meals.rowEditLabel", ["name": name, "time": time, "calories": calories])
        deleteLabel = strings("meals.deleteNamed", ["name": name])
    }
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
    /// Issue 17 "any day": the day switcher, the title ("Today's Meals", "Yesterday's meals", "Meals of Mon 23 Nov"),
    /// and the links that stay on the day shown.
    var dayNav: DayNavView
    var isToday: Bool
    var title: String
    var emptyText: String
    /// `?date=…` on a past day, else empty.
    var dayQuery: String
    var logMealPath: String
    var dashboardPath: String
    /// The copy forms' `requestId`, new for each page shown: a form sent twice (a double tap, a resent POST) copies
    /// once, because the copies' ids are derived from it and the source meal (`QuickLogging.copy`).
    var copyRequestId = TimeOrderedUUID.make().uuidString.lowercased()

    init(chrome: PageChrome, day: DashboardDay, meals: [StoredMeal], profile: Profile, shown: PageDay? = nil) {
        let strings = Strings.current
        self.chrome = chrome
        let shown = shown ?? PageDay(date: day.date, today: day.date)
        dayNav = DayNavView(day: shown, basePath: "/meals/today")
        isToday = shown.isToday
        title = shown.isToday ? strings("meals.todayTitle")
            : shown.isYesterday ? strings("days.mealsTitleYesterday") : strings("days.mealsTitle", ["day": shown.date.shortLabel])
        emptyText = strings(shown.isToday ? "meals.empty" : "days.mealsEmpty")
        dayQuery = shown.query
        logMealPath = "/meals/new" + shown.query
        dashboardPath = "/dashboard" + shown.query
        let eaten = strings.number(day.totals.kcal), target = strings.number(day.targets.calories)
        caloriesText = strings("meals.caloriesOfTarget", ["eaten": eaten, "target": target])
        macros = day.macros.map(MacroTotal.init)
        summary = ([strings("meals.summaryTotals", ["eaten": eaten, "target": target])] + macros.map(\.spoken)
            + [strings("meals.summaryMeals", count: day.totals.mealCount)]).joined(separator: " ")
        let clock = MealFormat.clock(in: profile.timeZone)
        self.meals = meals.map { stored in
            MealRow(
                id: stored.id.uuidString.lowercased(), name: stored.meal.name, time: clock.string(from: stored.meal.loggedAt),
                kcal: stored.meal.kcal
            )
        }
        hasMeals = !meals.isEmpty
    }

    /// What the page says after a save, an edit or a delete (`?saved=`, `?updated=`, `?deleted=`): the toast's
    /// words, and 000's gentle warning when the saved meal fell outside the window and its grace.
    mutating func addNotice(query: [String: String], userId: UUID, services: AppServices, profile: Profile) async throws {
        if let text = query["saved"] {
            notice = Strings.current("meals.saved")
            if let id = UUID(uuidString: text), let meal = try await services.meals.meal(userId: userId, id: id),
               profile.goal == .lose, profile.eatingWindow.placement(of: meal.meal.loggedAt, in: profile.timeZone) == .outside {
                warning = MealJSON.outsideWarning(profile.eatingWindow)
            }
        } else if query["updated"] != nil {
            notice = Strings.current("meals.updated")
        } else if let text = query["deleted"], let id = UUID(uuidString: text) {
            notice = Strings.current("meals.deleted")
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
    /// "Logged at 10:00 AM" / "Eingetragen um 10:00"
    var loggedAtText: String
    var calories: String
    var protein: String
    var carbs: String
    var fat: String
    var fiber: String
    var grams: String
    /// The food's values per 100 g, for the live preview of a new amount (absent when the catalog lost the food).
    var per100g: Per100g?
    var nameError: String?
    var caloriesError: String?
    var proteinError: String?
    var carbsError: String?
    var fatError: String?
    var fiberError: String?
    var gramsError: String?
    var formError: String?
    var calorieMessage = MealInput.Message.calories
    var macroMessage = MealInput.Message.macro
    var amountMessage = MealInput.Message.amount
    /// The meal's local time, "HH:mm", for the time field (issue 17: a meal's time can be changed on its own day).
    var time: String
    var timeError: String?
    /// `?date=…` of the meal's day when that is not today: where Back and a delete return to.
    var dayQuery = ""

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
        loggedAtText = Strings.current("meals.loggedAt", ["time": MealFormat.clock(in: profile.timeZone).string(from: meal.loggedAt)])
        time = MealDayForm.timeText(meal.loggedAt, in: profile.timeZone)
        calories = MealFormat.plain(meal.kcal)
        protein = meal.protein.map(MealFormat.plain) ?? ""
        carbs = meal.carbs.map(MealFormat.plain) ?? ""
        fat = meal.fat.map(MealFormat.plain) ?? ""
        fiber = meal.fiber.map(MealFormat.plain) ?? ""
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
        time = form.text("time").isEmpty ? time : form.text("time")
        if isFromFood {
            grams = form.text("grams")
        } else {
            calories = form.text("calories")
            protein = form.text("protein")
            carbs = form.text("carbs")
            fat = form.text("fat")
            fiber = form.text("fiber")
        }
        nameError = errors["name"]
        caloriesError = errors["calories"]
        proteinError = errors["protein"]
        carbsError = errors["carbs"]
        fatError = errors["fat"]
        fiberError = errors["fiber"]
        gramsError = errors["grams"]
        timeError = errors["time"] ?? errors["loggedAt"]
        if [nameError, caloriesError, proteinError, carbsError, fatError, fiberError, gramsError, timeError].allSatisfy({ $0 == nil }) {
            formError = errors.values.sorted().first ?? Strings.current("meals.checkAndRetry")
        }
    }
}

/// A posted meal form read as the API's `MealBody`, so the web and the API share one set of rules and messages.
enum MealForm {
    static let manualMembers = ["name", "calories", "protein", "carbs", "fat", "fiber"]
    static let foodEditMembers = ["name", "grams"]

    /// The form's members as JSON strings; an empty number field is "nothing typed" (it clears an optional macro).
    static func body(from form: WebForm, members: [String]) throws -> MealBody {
        var object: [String: Any] = [:]
        for member in members {
            let text = member == "name" ? form.text(member) : MealFormat.typedNumber(form.text(member))
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
    /// 46.5 → "46.5" ("46,5" in German), 150.0 → "150": a value as a person would type it (never grouped, so that
    /// it reads back as the same number).
    static func plain(_ value: Double) -> String {
        let tenth = Units.tenth(value)
        let text = tenth == tenth.rounded() ? String(Int(tenth)) : String(tenth)
        return Strings.current.language == .german ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    /// A typed number as the reader's language means it. German groups thousands with a dot ("1.250" is 1250); the
    /// decimal comma ("82,5") is read everywhere already. Anything else is left as typed.
    static func typedNumber(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard Strings.current.language == .german,
              trimmed.range(of: #"^[1-9][0-9]{0,2}(\.[0-9]{3})+(,[0-9]*)?$"#, options: .regularExpression) != nil
        else { return text }
        return trimmed.replacingOccurrences(of: ".", with: "")
    }

    /// "12:30 PM" / "12:30" in the user's zone.
    static func clock(in timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = Strings.current("meals.clockFormat")
        return formatter
    }
}
