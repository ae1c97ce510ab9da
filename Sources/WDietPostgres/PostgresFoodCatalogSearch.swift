import Foundation
import WDietFoodData

/// The words of a food's `FoodSearchDocument`, by column: what `search_vector` indexes; the import counts them
/// (`food_catalog_info.search_token_count`).
struct PostgresFoodSearchDocumentTokens {
    var head: [Substring]
    var body: [Substring]
    var extra: [Substring]

    init(head: String, body: String, extra: String) {
        self.head = head.split(separator: " ")
        self.body = body.split(separator: " ")
        self.extra = extra.split(separator: " ")
    }

    init(_ document: FoodSearchDocument) {
        self.init(head: document.head, body: document.body, extra: document.extra)
    }

    var count: Int { head.count + body.count + extra.count }
}
