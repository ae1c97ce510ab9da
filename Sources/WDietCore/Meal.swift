import Foundation

/// One logged meal. It keeps the nutrients it was logged with, so history never changes when the catalog does.
public struct Meal: Hashable, Codable, Sendable, Identifiable {
    public var id: UUID
    public var name: String
    /// The USDA NDB number when the meal came from the catalog.
    public var foodId: String?
    public var grams: Double?
    public var kcal: Double
    public var protein: Double?
    public var carbs: Double?
    public var fat: Double?
    public var fiber: Double?
    public var source: MealSource
    public var loggedAt: Date
    /// Breakfast, lunch, dinner or snack as chosen; nil: the slot of its local time (`slot(in:)`).
    public var slot: MealSlot?

    public init(
        id: UUID = TimeOrderedUUID.make(), name: String, foodId: String? = nil, grams: Double? = nil,
        kcal: Double, protein: Double? = nil, carbs: Double? = nil, fat: Double? = nil, fiber: Double? = nil,
        source: MealSource = .manual, loggedAt: Date, slot: MealSlot? = nil
    ) {
        self.id = id
        self.name = name
        self.foodId = foodId
        self.grams = grams
        self.kcal = kcal
        self.protein = protein
        self.carbs = carbs
        self.fat = fat
        self.fiber = fiber
        self.source = source
        self.loggedAt = loggedAt
        self.slot = slot
    }
}

/// One weight measurement. Several may exist on one day; the latest of the day is that day's value.
public struct WeightEntry: Hashable, Codable, Sendable, Identifiable {
    public var id: UUID
    public var kg: Double
    public var loggedAt: Date

    public init(id: UUID = TimeOrderedUUID.make(), kg: Double, loggedAt: Date) {
        self.id = id
        self.kg = kg
        self.loggedAt = loggedAt
    }
}
