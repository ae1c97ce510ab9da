import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// Values of an amount of food, as the logging API answers them.
struct NutrientsJSON: Encodable, Sendable {
    var calories: Double
    var protein: Double
    var carbs: Double
    var fat: Double
    var fiber: Double

    init(_ n: Nutrients) {
        let r = n.rounded()
        calories = r.kcal
        protein = r.protein
        carbs = r.carbs
        fat = r.fat
        fiber = r.fiber
    }
}

/// A favourite: what was starred, and the values one tap logs (a catalog food's for its grams, else per 100 g,
/// from the catalog; a manual meal's as starred).
struct FavouriteJSON: ResponseEncodable, Sendable {
    var id: String
    var name: String
    var foodId: String?
    var grams: Double?
    var calories: Double?
    var protein: Double?
    var carbs: Double?
    var fat: Double?
    var fiber: Double?
    var createdAt: Date
    var version: Int64

    init(_ favourite: Favourite, version: Int64, catalogValues: Nutrients?) {
        id = favourite.id.apiText
        name = favourite.name
        foodId = favourite.foodId
        grams = favourite.grams
        if let values = catalogValues?.rounded() {
            calories = values.kcal
            protein = values.protein
            carbs = values.carbs
            fat = values.fat
            fiber = values.fiber
        } else {
            calories = favourite.kcal
            protein = favourite.protein
            carbs = favourite.carbs
            fat = favourite.fat
            fiber = favourite.fiber
        }
        createdAt = favourite.createdAt
        self.version = version
    }
}

struct FavouritesJSON: ResponseEncodable, Sendable {
    var favourites: [FavouriteJSON]
}

/// A saved meal with its items and what one serving and the whole hold.
struct SavedMealJSON: ResponseEncodable, Sendable {
    struct Item: Encodable, Sendable {
        var name: String
        var foodId: String?
        var grams: Double?
        var portion: String?
        var quantity: Double?
        var calories: Double
        var protein: Double?
        var carbs: Double?
        var fat: Double?
        var fiber: Double?
    }

    var id: String
    var name: String
    var servings: Double
    var slot: MealSlot?
    var items: [Item]
    var perServing: NutrientsJSON
    var total: NutrientsJSON
    var createdAt: Date
    var updatedAt: Date
    var version: Int64

    init(_ saved: SavedMeal, version: Int64) {
        id = saved.id.apiText
        name = saved.name
        servings = saved.servings
        slot = saved.slot
        items = saved.items.map {
            Item(name: $0.name, foodId: $0.foodId, grams: $0.grams, portion: $0.portion, quantity: $0.quantity, calories: $0.kcal,
                 protein: $0.protein, carbs: $0.carbs, fat: $0.fat, fiber: $0.fiber)
        }
        perServing = NutrientsJSON(saved.perServing)
        total = NutrientsJSON(saved.total)
        createdAt = saved.createdAt
        updatedAt = saved.updatedAt
        self.version = version
    }
}

struct SavedMealsJSON: ResponseEncodable, Sendable {
    var savedMeals: [SavedMealJSON]
}

/// Meals made at once (a batch, a saved meal logged, a copy), in the order asked, with their day's totals.
struct LoggedMealsJSON: ResponseEncodable, Sendable {
    var meals: [MealJSON]
}

/// One recent food: its last portion and values (what one tap logs again), how often and when it was logged.
struct RecentFoodJSON: Encodable, Sendable {
    var key: String
    var name: String
    var source: MealSource
    var foodId: String?
    var grams: Double?
    var calories: Double
    var protein: Double?
    var carbs: Double?
    var fat: Double?
    var fiber: Double?
    var lastSlot: MealSlot
    var lastLoggedAt: Date
    var timesLogged: Int
    var timesInSlot: Int
    /// The favourite of this food, when it is starred.
    var favouriteId: String?
}

/// `GET /api/v1/foods/recent`: the slot of now, and the recent foods, most relevant first.
struct RecentFoodsJSON: ResponseEncodable, Sendable {
    var slot: MealSlot
    var items: [RecentFoodJSON]
}

extension RecentFoodsJSON {
    /// The ranked entries with each one's favourite (a catalog food by id, a manual meal by its name), as the API
    /// and the Log Meal page show them.
    init(slot: MealSlot, entries: [RecentFoods.Entry], starred: [Favourite], timeZone: TimeZone) {
        var byKey: [String: String] = [:]
        for favourite in starred {
            let key = favourite.foodId.map { "food:\($0)" } ?? "name:" + favourite.name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            byKey[key] = byKey[key] ?? favourite.id.apiText
        }
        self.init(
            slot: slot,
            items: entries.map { entry in
                let meal = entry.last
                return RecentFoodJSON(
                    key: entry.key, name: meal.name, source: meal.source, foodId: meal.foodId, grams: meal.grams, calories: meal.kcal,
                    protein: meal.protein, carbs: meal.carbs, fat: meal.fat, fiber: meal.fiber, lastSlot: meal.slot(in: timeZone),
                    lastLoggedAt: meal.loggedAt, timesLogged: entry.timesLogged, timesInSlot: entry.timesInSlot, favouriteId: byKey[entry.key])
            })
    }
}
