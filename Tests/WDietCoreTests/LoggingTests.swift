import Foundation
import Testing
@testable import WDietCore

/// Issue 17's pure parts: the meal slot by the local hour (002's buckets), a saved meal's nutrients from SR28 values,
/// and the rules of favourites and saved meals.
@Suite struct LoggingTests {
    @Test("002's buckets: 05-10 breakfast, 11-14 lunch, 15-16 snack, 17-20 dinner, 21-04 snack")
    func slotByLocalHour() {
        let expected: [MealSlot] = [
            .snack, .snack, .snack, .snack, .snack,  // 0-4
            .breakfast, .breakfast, .breakfast, .breakfast, .breakfast, .breakfast,  // 5-10
            .lunch, .lunch, .lunch, .lunch,  // 11-14
            .snack, .snack,  // 15-16
            .dinner, .dinner, .dinner, .dinner,  // 17-20
            .snack, .snack, .snack,  // 21-23
        ]
        #expect((0..<24).map(MealSlot.init(localHour:)) == expected)
    }

    @Test("a copy keeps the local time to the second across a clock change: 08:15:42 in Berlin on 28 Feb (07:15:42Z) is 08:15:42 on 29 Mar (06:15:42Z, summer time)")
    func copyAtTheSameLocalTime() throws {
        let berlin = TimeZone(identifier: "Europe/Berlin")!
        let meal = Meal(name: "Oats", kcal: 227, loggedAt: try #require(ISO8601DateFormatter().date(from: "2026-02-28T07:15:42Z")))
        let newId = UUID()
        let copy = meal.copied(to: try #require(LocalDate(year: 2026, month: 3, day: 29)), in: berlin, id: newId)
        #expect(copy.id == newId && copy.id != meal.id)
        #expect(copy.loggedAt == ISO8601DateFormatter().date(from: "2026-03-29T06:15:42Z"))
        #expect(copy.slot == .breakfast && copy.name == "Oats" && copy.kcal == 227)
        // A slot chosen for the copy wins over the one of its time.
        #expect(meal.copied(to: try #require(LocalDate(year: 2026, month: 3, day: 1)), in: berlin, id: newId, slot: .snack).slot == .snack)
    }

    @Test("an instant's slot is its local time's: 04:59 UTC is 05:59 in Berlin (breakfast), 23:59 in New York (snack)")
    func slotOfAnInstant() throws {
        let instant = try #require(ISO8601DateFormatter().date(from: "2026-03-01T04:59:00Z"))
        #expect(MealSlot(instant, in: TimeZone(identifier: "Europe/Berlin")!) == .breakfast)
        #expect(MealSlot(instant, in: TimeZone(identifier: "America/New_York")!) == .snack)
        #expect(MealSlot(instant, in: TimeZone(identifier: "UTC")!) == .snack)
        let meal = Meal(name: "Toast", kcal: 200, loggedAt: instant)
        #expect(meal.slot(in: TimeZone(identifier: "Europe/Berlin")!) == .breakfast)
        var chosen = meal
        chosen.slot = .lunch
        #expect(chosen.slot(in: TimeZone(identifier: "Europe/Berlin")!) == .lunch)
    }

    /// SR28: oats (08120) 379 kcal, 13.15 g protein, 67.70 g carbs, 6.52 g fat, 10.1 g fiber per 100 g; whole milk
    /// (01077) 61 / 3.15 / 4.80 / 3.25 / 0; banana (09040) 89 / 1.09 / 22.84 / 0.33 / 2.6. 200 ml of milk is 206.3 g
    /// (1 cup = 244 g = 236.6 ml); a medium banana is 118 g.
    static let oats = Nutrients(kcal: 379, protein: 13.15, carbs: 67.70, fat: 6.52, fiber: 10.1)
    static let milk = Nutrients(kcal: 61, protein: 3.15, carbs: 4.80, fat: 3.25, fiber: 0)
    static let banana = Nutrients(kcal: 89, protein: 1.09, carbs: 22.84, fat: 0.33, fiber: 2.6)

    static func porridge(servings: Double = 1) -> SavedMeal {
        SavedMeal(
            name: "My porridge", servings: servings,
            items: [
                .food(foodId: "08120", name: "Oats", per100g: oats, grams: 60),
                .food(foodId: "01077", name: "Milk", per100g: milk, grams: 206.3, portion: "ml", quantity: 200),
                .food(foodId: "09040", name: "Banana", per100g: banana, grams: 118, portion: "medium (7\" to 7-7/8\" long)", quantity: 1),
            ],
            createdAt: Date(timeIntervalSince1970: 1_772_355_600))
    }

    @Test("my porridge: oats 60 g (227.4 kcal) + milk 200 ml (125.8) + banana 1 medium (105.0) = 458.2 kcal a serving")
    func porridgeNutrients() {
        let recipe = Self.porridge()
        #expect(recipe.items.map(\.kcal) == [227.4, 125.8, 105.0])
        #expect(recipe.items.map(\.protein) == [7.9, 6.5, 1.3])
        #expect(recipe.items.map(\.carbs) == [40.6, 9.9, 27.0])
        #expect(recipe.items.map(\.fat) == [3.9, 6.7, 0.4])
        #expect(recipe.items.map(\.fiber) == [6.1, 0, 3.1])
        #expect(recipe.total == Nutrients(kcal: 458.2, protein: 15.7, carbs: 77.5, fat: 11.0, fiber: 9.2))
        #expect(recipe.perServing == recipe.total)
    }

    @Test("made as 2 servings: 229.1 kcal, 7.9 g protein, 38.8 g carbs, 5.5 g fat, 4.6 g fiber a serving")
    func perServing() {
        let recipe = Self.porridge(servings: 2)
        #expect(recipe.perServing == Nutrients(kcal: 229.1, protein: 7.9, carbs: 38.8, fat: 5.5, fiber: 4.6))
    }

    @Test("logging 1 of 2 servings makes three meals at half the amounts, in the slot asked for, with the ids given")
    func loggingScaled() throws {
        let recipe = Self.porridge(servings: 2)
        let at = Date(timeIntervalSince1970: 1_772_380_000)
        let ids = [UUID(), UUID(), UUID()]
        let meals = recipe.meals(servingsEaten: 1, loggedAt: at, slot: .breakfast, ids: ids)
        #expect(meals.map(\.id) == ids)
        #expect(meals.map(\.grams) == [30, 103.2, 59])
        #expect(meals.map(\.kcal) == [113.7, 62.9, 52.5])
        #expect(meals.allSatisfy { $0.slot == .breakfast && $0.loggedAt == at && $0.source == .database })
        #expect(meals.map(\.foodId) == ["08120", "01077", "09040"])
        // Both servings: the amounts as saved.
        #expect(recipe.meals(servingsEaten: 2, loggedAt: at, slot: nil).map(\.kcal) == [227.4, 125.8, 105.0])
    }

    @Test("a manual item logs as a manual meal without grams")
    func manualItem() {
        let recipe = SavedMeal(
            name: "Lunch box", items: [SavedMeal.Item(name: "Sandwich", kcal: 420, protein: 20)], createdAt: Date())
        let meal = recipe.meals(loggedAt: Date(timeIntervalSince1970: 0), slot: .lunch)[0]
        #expect(meal.source == .manual && meal.grams == nil && meal.kcal == 420 && meal.protein == 20 && meal.slot == .lunch)
    }

    @Test("a saved meal's rules name each member")
    func savedMealRules() throws {
        #expect(throws: Never.self) { try Self.porridge().validate() }
        var bad = Self.porridge()
        bad.name = "  "
        bad.servings = 0
        bad.items[1].grams = 6_000
        bad.items.append(SavedMeal.Item(name: "Cake", kcal: 0))
        let error = try #require(throws: LoggingInput.Invalid.self) { try bad.validate() }
        #expect(Set(error.errors.keys) == ["name", "servings", "items.1.grams", "items.3.calories"])
        #expect(error.errors["items.3.calories"] == "Calories must be between 1-9999")
        var empty = Self.porridge()
        empty.items = []
        #expect(throws: LoggingInput.Invalid(errors: ["items": "Please add 1-50 foods"])) { try empty.validate() }
    }

    @Test("a favourite is a catalog food (no values) or a manual meal (1-9999 kcal)")
    func favouriteRules() throws {
        let at = Date(timeIntervalSince1970: 0)
        #expect(throws: Never.self) { try Favourite(name: "Banana", foodId: "09040", grams: 118, createdAt: at).validate() }
        #expect(throws: Never.self) { try Favourite(name: "Coffee", kcal: 5, createdAt: at).validate() }
        let error = try #require(throws: LoggingInput.Invalid.self) {
            try Favourite(name: "Banana", foodId: "09040", kcal: 89, createdAt: at).validate()
        }
        #expect(error.errors.keys.sorted() == ["calories"])
        let manual = try #require(throws: LoggingInput.Invalid.self) { try Favourite(name: "", kcal: 0, protein: 1_000, createdAt: at).validate() }
        #expect(manual.errors.keys.sorted() == ["calories", "name", "protein"])
        let fromMeal = Favourite(meal: Meal(name: "Oats", foodId: "08120", grams: 60, kcal: 227.4, source: .database, loggedAt: at), createdAt: at)
        #expect(fromMeal.foodId == "08120" && fromMeal.grams == 60 && fromMeal.kcal == nil)
    }

    @Test("the new messages are in both languages")
    func messagesInGerman() {
        #expect(Strings.$current.withValue(.german) { LoggingInput.Message.servings } == "Die Portionen müssen zwischen 0,1 und 100 liegen")
        #expect(Strings.german("logging.name", ["max": "100"]) == "Bitte gib einen Namen mit 1 bis 100 Zeichen ein")
        #expect(LoggingInput.Message.slot == "Please choose Breakfast, Lunch, Dinner or Snack")
    }
}

/// The recents' order: the slot of now first, then frecency (14-day half-life), then recency.
@Suite struct RecentFoodsTests {
    let berlin = TimeZone(identifier: "Europe/Berlin")!
    let now = ISO8601DateFormatter().date(from: "2026-03-10T07:00:00Z")!  // 08:00 in Berlin: breakfast

    func meal(_ name: String, foodId: String? = nil, grams: Double? = nil, kcal: Double, daysAgo: Double, hourUTC: Int, slot: MealSlot? = nil) -> Meal {
        let midnight = ISO8601DateFormatter().date(from: "2026-03-10T00:00:00Z")!
        let at = midnight.addingTimeInterval(-daysAgo * 86_400 + Double(hourUTC) * 3_600)
        return Meal(name: name, foodId: foodId, grams: grams, kcal: kcal, source: foodId == nil ? .manual : .database, loggedAt: at, slot: slot)
    }

    @Test("in the morning: breakfast foods first, each food once with its last portion; then the rest by frecency")
    func morningOrder() {
        let meals = [
            // Oats every morning for 5 days, 40 g then 60 g most recently.
            meal("Oats", foodId: "08120", grams: 40, kcal: 151.6, daysAgo: 5, hourUTC: 6),
            meal("Oats", foodId: "08120", grams: 40, kcal: 151.6, daysAgo: 4, hourUTC: 6),
            meal("Oats", foodId: "08120", grams: 40, kcal: 151.6, daysAgo: 3, hourUTC: 6),
            meal("Oats", foodId: "08120", grams: 40, kcal: 151.6, daysAgo: 2, hourUTC: 6),
            meal("Oats", foodId: "08120", grams: 60, kcal: 227.4, daysAgo: 1, hourUTC: 6),
            // Coffee once this morning... logged as a breakfast yesterday too.
            meal("Coffee", kcal: 5, daysAgo: 1, hourUTC: 7),
            // Pasta at dinner 4 times: more often than coffee, but not a breakfast.
            meal("Pasta", foodId: "20121", grams: 200, kcal: 316, daysAgo: 1, hourUTC: 18),
            meal("Pasta", foodId: "20121", grams: 200, kcal: 316, daysAgo: 2, hourUTC: 18),
            meal("Pasta", foodId: "20121", grams: 200, kcal: 316, daysAgo: 3, hourUTC: 18),
            meal("pasta ", kcal: 400, daysAgo: 4, hourUTC: 18),  // a manual meal of the same name is another food
            // A late snack long ago.
            meal("Crisps", kcal: 150, daysAgo: 50, hourUTC: 21),
            // Leftovers eaten at 07:30 but put in Dinner on purpose: not a breakfast.
            meal("Leftover curry", kcal: 600, daysAgo: 0.2, hourUTC: 6, slot: .dinner),
        ]
        let recents = RecentFoods.rank(meals.shuffled(), now: now, timeZone: berlin)
        #expect(recents.map(\.last.name) == ["Oats", "Coffee", "Pasta", "Leftover curry", "pasta ", "Crisps"])
        #expect(recents[0].last.grams == 60 && recents[0].last.kcal == 227.4)
        #expect(recents[0].timesLogged == 5 && recents[0].timesInSlot == 5)
        #expect(recents[2].timesLogged == 3 && recents[2].timesInSlot == 0)
    }

    @Test("in the evening the dinner foods lead")
    func eveningOrder() {
        let evening = ISO8601DateFormatter().date(from: "2026-03-10T18:00:00Z")!  // 19:00 in Berlin
        let meals = [
            meal("Oats", foodId: "08120", grams: 60, kcal: 227.4, daysAgo: 1, hourUTC: 6),
            meal("Oats", foodId: "08120", grams: 60, kcal: 227.4, daysAgo: 2, hourUTC: 6),
            meal("Pasta", foodId: "20121", grams: 200, kcal: 316, daysAgo: 3, hourUTC: 18),
        ]
        #expect(RecentFoods.rank(meals, now: evening, timeZone: berlin).map(\.last.name) == ["Pasta", "Oats"])
        #expect(RecentFoods.rank(meals, now: evening, timeZone: berlin, limit: 1).count == 1)
    }
}
