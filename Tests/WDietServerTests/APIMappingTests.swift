import Foundation
import Testing
import WDietCore
import WDietFoodData
@testable import WDietServer
import WDietTestSupport

/// The API's pure mapping code: bodies to domain values and back, without a server.
@Suite("API mapping")
struct APIMappingTests {
    static func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
        try APICoding.decoder.decode(T.self, from: Data(json.utf8))
    }

    @Test("JSONField tells absent from null from a value")
    func jsonField() throws {
        struct Body: Decodable { var a: JSONField<Int>; var b: JSONField<Int>; var c: JSONField<Int> }
        let body = try Self.decode(Body.self, #"{"b": null, "c": 3}"#)
        #expect(body.a.isAbsent)
        #expect(body.b.isPresent && body.b.value == nil)
        #expect(body.c.value == 3)
        #expect(body.a.merged(into: 1) == 1)
        #expect(body.b.merged(into: 1) == nil)
        #expect(body.c.merged(into: 1) == 3)
    }

    @Test("numbers as a client sends them", arguments: [
        ("80", NumericInput.value(80)), ("82.5", .value(82.5)), (#""82,5""#, .value(82.5)), (#""""#, .missing),
        (#""abc""#, .invalid), ("true", .invalid), ("{}", .invalid), ("[1]", .invalid),
    ])
    func numbers(json: String, expected: NumericInput) throws {
        struct Body: Decodable { var n: JSONField<NumberInput> }
        #expect(try Self.decode(Body.self, #"{"n": \#(json)}"#).n.numeric == expected)
    }

    @Test("a profile body becomes the Profile the stores keep")
    func profileBody() throws {
        let body = try Self.decode(ProfileBody.self, """
            {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
             "activity": "moderate", "timeZone": "Europe/Berlin", "planStartDate": "2026-01-01", "eatingWindowStart": "09:30",
             "allergies": ["Peanuts", " peanuts "], "deficit": "studyProtocol", "heightUnit": "ftIn"}
            """)
        let profile = try body.profile(over: nil, now: Fixtures.utc("2026-03-01T09:00:00Z"))
        var expected = Fixtures.profile(deficit: .studyProtocol)
        expected.eatingWindow = EatingWindow(startMinute: 9 * 60 + 30)!
        expected.allergies = ["Peanuts"]
        expected.heightUnit = .ftIn
        #expect(profile == expected)
    }

    @Test("every profile form field maps to a body member")
    func profileMembers() {
        let members = ProfileField.allCases.map(ProfileBody.member(for:))
        #expect(Set(members).count == ProfileField.allCases.count)
        #expect(ProfileBody.member(for: .gender) == "sex")
        #expect(ProfileBody.member(for: .currentWeight) == "weightKg")
    }

    @Test("a use case's field errors answer 422 invalid with the same message and fields")
    func invalidInputIs422() {
        let one = InvalidInput(["calories": "Calories must be between 1-9999"])
        #expect(one.message == "Calories must be between 1-9999")
        #expect(APIError.from(one) == APIError(.unprocessableContent, code: "invalid", message: one.message, fields: one.fields))
        let two = InvalidInput(["calories": "Calories must be between 1-9999", "fat": "Please enter a valid number"])
        #expect(APIError.from(two).message == "Please check the highlighted fields.")
    }

    @Test("a manual meal body: MealInput's rules, messages keyed by member")
    func manualMeal() throws {
        let now = Fixtures.utc("2026-03-01T12:00:00Z")
        let id = UUID()
        let meal = try Self.decode(MealBody.self, #"{"name": " Soup ", "calories": 240, "fat": 8}"#).manualMeal(id: id, now: now)
        #expect(meal == Meal(id: id, name: "Soup", kcal: 240, fat: 8, source: .manual, loggedAt: now))

        #expect(throws: InvalidInput(["calories": "Calories must be between 1-9999"], message: "Calories must be between 1-9999")) {
            try Self.decode(MealBody.self, #"{"calories": 0}"#).manualMeal(id: id, now: now)
        }
        #expect(throws: InvalidInput(["grams": "Only a meal from the food database has an amount"], message: "Only a meal from the food database has an amount")) {
            try Self.decode(MealBody.self, #"{"calories": 100, "grams": 50}"#).manualMeal(id: id, now: now)
        }
    }

    @Test("a catalog meal body: grams or a portion × quantity")
    func foodMeal() throws {
        let chicken = Food(
            id: "05062", longDescription: "Chicken breast", foodGroupCode: "0500", foodGroupDescription: "Poultry",
            nutrients: [.init(nutrientNumber: "208", amount: 120), .init(nutrientNumber: "203", amount: 22.5), .init(nutrientNumber: "204", amount: 2.62)],
            measures: [HouseholdMeasure(sequence: 1, amount: 3, description: "oz", grams: 85)]
        )
        let now = Fixtures.utc("2026-03-01T12:00:00Z")
        let byGrams = try Self.decode(MealBody.self, #"{"foodId": "05062", "grams": 150}"#).foodMeal(id: UUID(), food: chicken, now: now)
        #expect(byGrams.kcal == 180)
        #expect(byGrams.grams == 150)
        let byPortion = try Self.decode(MealBody.self, #"{"foodId": "05062", "portion": "3 oz", "quantity": 1.5}"#).foodMeal(id: UUID(), food: chicken, now: now)
        #expect(byPortion.grams == 127.5)
        #expect(byPortion.kcal == 153)
        let hundred = try Self.decode(MealBody.self, #"{"foodId": "05062", "portion": "100 g"}"#).foodMeal(id: UUID(), food: chicken, now: now)
        #expect(hundred.kcal == 120)
        #expect(throws: InvalidInput(["grams": "Send grams or a portion, not both"], message: "Send grams or a portion, not both")) {
            try Self.decode(MealBody.self, #"{"foodId": "05062", "grams": 10, "portion": "3 oz"}"#).foodMeal(id: UUID(), food: chicken, now: now)
        }
    }

    @Test("patching a catalog meal without its food in the catalog scales what it was logged with")
    func patchWithoutCatalog() throws {
        let meal = Meal(name: "Chicken", foodId: "05062", grams: 150, kcal: 180, protein: 33.8, carbs: 0, fat: 4, fiber: 0, source: .database, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
        let patched = try Self.decode(MealBody.self, #"{"grams": 75}"#).patched(meal, food: nil)
        #expect(patched.grams == 75)
        #expect(patched.kcal == 90)
        #expect(patched.protein == 16.9)
        #expect(patched.fat == 2)
        #expect(patched.id == meal.id)
    }

    @Test("USDA names longer than a meal name are cut at a word with an ellipsis")
    func longNames() {
        let long = "Beverages, carbonated, reduced sugar, cola, contains caffeine and sweeteners, with added vitamins and minerals, and more"
        let food = Food(id: "1", longDescription: long, foodGroupCode: "1400", foodGroupDescription: "Beverages")
        let name = MealInput.mealName(forFood: food.longDescription)
        #expect(name.count <= MealInput.maxNameLength)
        #expect(name.hasSuffix("…"))
        #expect(long.hasPrefix(String(name.dropLast())))
        let short = Food(id: "2", longDescription: "Apples, raw", foodGroupCode: "0900", foodGroupDescription: "Fruits")
        #expect(MealInput.mealName(forFood: short.longDescription) == "Apples, raw")
    }

    @Test("eating window labels", arguments: [(12 * 60, "12:00", "12pm-6pm"), (9 * 60 + 30, "09:30", "9:30am-3:30pm"), (21 * 60, "21:00", "9pm-3am"), (0, "00:00", "12am-6am")])
    func windowLabels(start: Int, clock: String, warning: String) throws {
        let window = try #require(EatingWindow(startMinute: start))
        #expect(EatingWindowJSON(window).start == clock)
        #expect(EatingWindowJSON.warningLabel(window) == warning)
    }

    @Test("food search parameters")
    func searchParameters() throws {
        #expect(try FoodsAPI.parameters(" apple ", limit: nil) == ("apple", 20))
        #expect(try FoodsAPI.parameters("apple", limit: "50") == ("apple", 50))
        #expect(throws: APIError.self) { try FoodsAPI.parameters(nil, limit: nil) }
        #expect(throws: APIError.self) { try FoodsAPI.parameters("apple", limit: "51") }
    }

    @Test("weights: kg to the tenth, lb converted, 001's messages")
    func weightBody() throws {
        let now = Fixtures.utc("2026-03-01T07:00:00Z")
        #expect(try Self.decode(WeightBody.self, #"{"kg": 80.04}"#).entry(id: UUID(), unit: .kg, now: now).kg == 80)
        #expect(try Self.decode(WeightBody.self, #"{"lb": 176.4}"#).entry(id: UUID(), unit: .kg, now: now).kg == 80)
        #expect(throws: InvalidInput(["lb": "Weight must be less than 500 kg (1102 lbs)"], message: "Weight must be less than 500 kg (1102 lbs)")) {
            try Self.decode(WeightBody.self, #"{"lb": 1200}"#).entry(id: UUID(), unit: .lb, now: now)
        }
    }

    @Test("a dashboard day's instant: now for today, local noon for another day")
    func dashboardInstant() {
        let berlin = Fixtures.zone("Europe/Berlin")
        let now = Fixtures.utc("2026-03-01T09:00:00Z")
        #expect(DashboardAPI.instant(for: Fixtures.date("2026-03-01"), now: now, in: berlin) == now)
        #expect(DashboardAPI.instant(for: Fixtures.date("2026-02-10"), now: now, in: berlin) == Fixtures.utc("2026-02-10T11:00:00Z"))
        #expect(DashboardAPI.instant(for: Fixtures.date("2026-07-10"), now: now, in: berlin) == Fixtures.utc("2026-07-10T10:00:00Z"))
    }
}
