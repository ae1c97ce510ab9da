import Foundation

/// What `AppDatabase.importFoodCatalog(from:)` did.
public struct ImportSummary: Hashable, Sendable, Codable {
    public var foods: Int
    public var foodGroups: Int
    public var nutrientDefinitions: Int
    public var nutrientValues: Int
    public var householdMeasures: Int
    /// The fingerprint of the imported files.
    public var contentHash: String
    /// True when the database already held exactly these files and nothing was written.
    public var unchanged: Bool

    public init(
        foods: Int, foodGroups: Int, nutrientDefinitions: Int, nutrientValues: Int, householdMeasures: Int,
        contentHash: String, unchanged: Bool
    ) {
        self.foods = foods
        self.foodGroups = foodGroups
        self.nutrientDefinitions = nutrientDefinitions
        self.nutrientValues = nutrientValues
        self.householdMeasures = householdMeasures
        self.contentHash = contentHash
        self.unchanged = unchanged
    }
}
