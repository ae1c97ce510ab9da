import Foundation
import WDietCore
import WDietFoodData
import WDietStore

/// `/meals/new` and `/meals/new?date=YYYY-MM-DD`: search, the portion step, manual entry, and issue 17's quick
/// logging (a slot, recents, favourites, saved meals, "same as yesterday", a meal of several foods).
struct LogMealPage: Sendable {
    var chrome: PageChrome
    /// Nil for Maintain and Gain, and on a past day: the eating window is part of the Lose plan only, and "now".
    var window: EatingWindowBanner?
    var manual = ManualMealForm()
    var manualSelected = false
    var calorieMessage = MealInput.Message.calories
    var macroMessage = MealInput.Message.macro
    var amountMessage = MealInput.Message.amount
    /// That the food names are English, for a reader of another language (the USDA catalog is data, not copy).
    var searchHint: String?
    /// The day logged onto (YYYY-MM-DD, the user's local day) and the one before it (for "same as yesterday").
    var date: String
    var previousDate: String
    /// "Tue 24 Nov": set only for a past day, which also shows the time field.
    var pastDay: String?
    var pastDayHeading: String?
    var time: String = ""
    /// Where a save returns to: today's meals, or that day's.
    var returnPath: String
    var slots: [SlotChoice]
    /// The quick lists as JSON, for the page's script (recents, favourites, saved meals, their foods).
    var quickData = "{}"
    /// "Scan Label" is offered only where this server can read labels (`MealPages.logPage` sets it).
    var labelScanAvailable = false

    init(chrome: PageChrome, profile: Profile, now: Date, day: LocalDate? = nil) {
        self.chrome = chrome
        let strings = Strings.current
        let today = LocalDate(now, in: profile.timeZone)
        let logDay = day ?? today
        let isPast = logDay < today
        window = profile.goal == .lose && !isPast ? EatingWindowBanner(window: profile.eatingWindow, now: now, timeZone: profile.timeZone) : nil
        if strings.language != .english { searchHint = strings("meals.searchLanguageHint") }
        date = logDay.iso
        previousDate = logDay.adding(days: -1).iso
        let slot = MealSlot(now, in: profile.timeZone)
        if isPast {
            let name = strings.date(logDay, .weekdayDayMonth)
            pastDay = name
            pastDayHeading = strings("quicklog.pastDayHeading", ["day": name])
            time = Self.middle(of: slot)
            returnPath = "/meals/today?date=\(logDay.iso)"
        } else {
            returnPath = "/meals/today"
        }
        slots = MealSlot.allCases.map { SlotChoice(slot: $0, selected: $0 == slot) }
    }

    /// 002's slot's middle, where a meal of a past day is placed unless the person says otherwise.
    static func middle(of slot: MealSlot) -> String {
        switch slot {
        case .breakfast: "08:00"
        case .lunch: "12:30"
        case .snack: "15:30"
        case .dinner: "18:30"
        }
    }
}

/// A slot button, with what "same as yesterday" would copy into it.
struct SlotChoice: Sendable {
    var value: String
    var label: String
    var emoji: String
    var selected: Bool
    var middle: String
    /// "3 foods · 450 cal" yesterday in this slot; nil when yesterday had none.
    var yesterday: String?
    var yesterdayLabel: String = ""

    init(slot: MealSlot, selected: Bool) {
        value = slot.rawValue
        label = slot.title
        emoji = switch slot {
        case .breakfast: "🌅"
        case .lunch: "☀️"
        case .dinner: "🌙"
        case .snack: "🍎"
        }
        self.selected = selected
        middle = LogMealPage.middle(of: slot)
    }
}

/// What the Log Meal script shows before anything is typed.
struct LogMealQuickData: Encodable, Sendable {
    var date: String
    var isPast: Bool
    var timeZone: String
    var returnPath: String
    var recents: [RecentFoodJSON]
    var favourites: [FavouriteJSON]
    var savedMeals: [SavedMealJSON]
    /// The catalog foods of the lists by id, for the portion step ("adjust").
    var foods: [String: FoodJSON]
}

extension LogMealPage {
    /// Fills the quick lists and "same as yesterday" from the user's meals, favourites and saved meals.
    mutating func addQuickLogging(services: AppServices, userId: UUID, profile: Profile, day: LocalDate) async throws {
        let strings = Strings.current
        let quick = QuickLogging(services: services)
        let timeZone = profile.timeZone
        let before = try await services.meals.meals(userId: userId, on: day.adding(days: -1))
        for index in slots.indices {
            let meals = before.filter { $0.meal.slot(in: timeZone).rawValue == slots[index].value }
            guard !meals.isEmpty else { continue }
            let kcal = meals.reduce(0) { $0 + $1.meal.kcal }
            slots[index].yesterday = strings("quicklog.foodsAndCalories", ["foods": strings("quicklog.foodCount", count: meals.count), "kcal": strings.number(kcal.rounded())])
        }
        let isPast = pastDay != nil
        for index in slots.indices {
            slots[index].yesterdayLabel = strings(isPast ? "quicklog.sameAsDayBefore" : "quicklog.sameAsYesterday")
        }
        let favourites = try await quick.favourites(userId: userId)
        let entries = try await quick.recents(userId: userId, profile: profile, limit: 12)
        let recents = RecentFoodsJSON(slot: MealSlot(services.now(), in: timeZone), entries: entries, starred: favourites.map(\.0), timeZone: timeZone)
        var foods: [String: FoodJSON] = [:]
        var favouriteJSON: [FavouriteJSON] = []
        for (favourite, version) in favourites {
            var values: Nutrients?
            if let foodId = favourite.foodId, let food = try? await services.foods.food(id: foodId) {
                values = food.per100g.scaled(toGrams: favourite.grams ?? 100)
                foods[foodId] = Self.foodJSON(food)
            }
            favouriteJSON.append(FavouriteJSON(favourite, version: version, catalogValues: values))
        }
        for item in recents.items {
            guard let foodId = item.foodId, foods[foodId] == nil, let food = try? await services.foods.food(id: foodId) else { continue }
            foods[foodId] = Self.foodJSON(food)
        }
        let saved = try await quick.savedMeals(userId: userId).map { SavedMealJSON($0.0, version: $0.1) }
        let data = LogMealQuickData(
            date: date, isPast: isPast, timeZone: profile.timeZoneIdentifier, returnPath: returnPath,
            recents: recents.items, favourites: favouriteJSON.reversed(), savedMeals: saved, foods: foods)
        quickData = String(decoding: try APICoding.encoder.encode(data), as: UTF8.self)
    }

    static func foodJSON(_ food: Food) -> FoodJSON {
        let n = food.per100g
        return FoodJSON(FoodSearchResult(
            id: food.id, name: food.longDescription, foodGroup: food.foodGroupDescription, kcal: n.kcal, protein: n.protein,
            carbohydrate: n.carbs, fat: n.fat, fiber: n.fiber, measures: food.measures))
    }
}
