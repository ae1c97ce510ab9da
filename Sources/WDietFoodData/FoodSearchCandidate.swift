/// A food that the full-text index matched, with what the ranker needs to order it.
public struct FoodSearchCandidate: Hashable, Sendable {
    public var id: String
    public var longDescription: String
    /// The food's static prior (`FoodSearchRanker.prior(of:)`), stored at import.
    public var prior: Double
    /// FTS5's bm25 for the query; lower is better, and it is negative for any match.
    public var bm25: Double
    /// SR28's food group ("0500"): whether people eat the food cooked or raw (`FoodSearchRanker.preparation`).
    public var foodGroupCode: String?

    public init(id: String, longDescription: String, prior: Double, bm25: Double, foodGroupCode: String? = nil) {
        self.id = id
        self.longDescription = longDescription
        self.prior = prior
        self.bm25 = bm25
        self.foodGroupCode = foodGroupCode
    }
}
