import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// One meal as the API returns it: what was logged, the local day it counts for, its version, and where it fell
/// against the eating window (a meal outside it is saved all the same, with a gentle warning).
struct MealJSON: ResponseEncodable, Sendable {
    /// Lowercase, like every id the API writes.
    var id: String
    var name: String
    var source: MealSource
    var foodId: String?
    var grams: Double?
    var calories: Double
    var protein: Double?
    var carbs: Double?
    var fat: Double?
    var fiber: Double?
    var loggedAt: Date
    var localDate: LocalDate
    /// The slot chosen, or the one of `loggedAt`'s local time in the profile's zone (002's buckets).
    var slot: MealSlot
    var version: Int64
    var createdAt: Date
    var updatedAt: Date
    var window: EatingWindow.Placement
    /// "Eating outside your window (12pm-6pm)" when `window` is outside, in the reader's language.
    var warning: String?

    init(_ stored: StoredMeal, profile: Profile) {
        let meal = stored.meal
        id = meal.id.apiText
        name = meal.name
        source = meal.source
        foodId = meal.foodId
        grams = meal.grams
        calories = meal.kcal
        protein = meal.protein
        carbs = meal.carbs
        fat = meal.fat
        fiber = meal.fiber
        loggedAt = meal.loggedAt
        localDate = stored.localDate
        slot = meal.slot(in: profile.timeZone)
        version = stored.version
        createdAt = stored.createdAt
        updatedAt = stored.updatedAt
        window = profile.eatingWindow.placement(of: meal.loggedAt, in: profile.timeZone)
        // The window is part of the Lose plan only: Maintain and Gain never chose one.
        warning = window == .outside && profile.goal == .lose ? Self.outsideWarning(profile.eatingWindow) : nil
    }

    /// 000's warning feedback, non-blocking.
    static func outsideWarning(_ window: EatingWindow) -> String {
        Strings.current("meals.outsideWarning", ["window": window.compactLabel])
    }
}

/// `GET /meals`: a local day's meals, newest first, and what they add up to.
struct MealDayJSON: ResponseEncodable, Sendable {
    var date: LocalDate
    var meals: [MealJSON]
    var totals: TotalsJSON
}
