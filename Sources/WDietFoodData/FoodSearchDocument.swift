/// The text a food is found by, in three parts that FTS5 weighs differently: the head of its name (the first
/// comma-separated part, plus the second when the first is only a category such as "Fish" or "Nuts"),
/// the rest of its name, and its other names (common name, manufacturer). All of it stemmed.
public struct FoodSearchDocument: Hashable, Sendable {
    public var head: String
    public var body: String
    public var extra: String

    public init(head: String, body: String, extra: String) {
        self.head = head
        self.body = body
        self.extra = extra
    }

    public init(_ food: Food) {
        self.init(longDescription: food.longDescription, commonName: food.commonName, manufacturer: food.manufacturer)
    }

    /// From the three fields it is made of, as a store reads them back (`FoodSearchIndex`).
    public init(longDescription: String, commonName: String?, manufacturer: String?) {
        let segments = FoodSearchRanker.segments(of: longDescription)
        let headCount = FoodSearchRanker.headSegmentCount(segments)
        head = segments.prefix(headCount).flatMap { $0 }.map(\.stem).joined(separator: " ")
        body = segments.dropFirst(headCount).flatMap { $0 }.map(\.stem).joined(separator: " ")
        extra = [commonName, manufacturer].compactMap { $0 }
            .flatMap { FoodSearchText.terms($0) }.joined(separator: " ")
    }
}
