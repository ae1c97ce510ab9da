import Foundation
import Testing
import WDietSQLite

/// Everyday queries and the food a person means by them, checked by hand against SR28. Where several foods
/// are equally what a person means (raw or roasted chicken breast, any plain raw salmon), each is accepted.
@Suite("Food search relevance on SR28")
struct FoodSearchRelevanceTests {
    static let chickenBreast: Set<String> = ["05062", "05064", "05057", "05746", "05747"]
    static let plainSalmon: Set<String> = ["15076", "15236", "15083", "15085", "15078", "15081"]
    static let whiteRice: Set<String> = ["20044", "20045", "20444", "20445"]
    static let rawGroundBeef: Set<String> = ["23572", "23567", "23562", "23577", "23557"]
    static let wholeMilk: Set<String> = ["01077", "01211"]

    static let cases: [(query: String, expected: Set<String>)] = [
        ("banana", ["09040"]), ("banan", ["09040"]), ("bananas", ["09040"]), ("Bananas, raw", ["09040"]),
        ("apple", ["09003"]), ("apples", ["09003"]), ("appl", ["09003"]),
        ("strawberry", ["09316"]), ("strawberries", ["09316"]), ("strawb", ["09316"]),
        ("egg", ["01123"]), ("eggs", ["01123"]), ("whole egg", ["01123"]), ("raw egg", ["01123"]),
        ("milk", wholeMilk), ("whole milk", wholeMilk), ("milk whole", wholeMilk),
        ("chicken breast", chickenBreast), ("breast chicken", chickenBreast), ("chick brea", chickenBreast),
        ("chicken breasts", chickenBreast),
        ("tomato", ["11529"]), ("tomatoes", ["11529"]),
        ("potato", ["11352"]), ("potatoes", ["11352"]),
        ("carrot", ["11124"]), ("carrots", ["11124"]), ("broccoli", ["11090"]), ("spinach", ["11457"]),
        ("avocado", ["09037"]), ("orange", ["09200"]), ("onion", ["11282"]), ("garlic", ["11215"]),
        ("cucumber", ["11205"]), ("pear", ["09252"]), ("peach", ["09236"]), ("peaches", ["09236"]),
        ("mango", ["09176"]), ("pineapple", ["09266"]), ("watermelon", ["09326"]), ("waterm", ["09326"]),
        ("blueberries", ["09050"]), ("blueberry", ["09050"]), ("grapes", ["09132", "09131"]),
        ("salmon", plainSalmon), ("tuna", ["15121", "15119", "15117", "15127"]), ("shrimp", ["15270", "15271", "15149"]),
        ("almonds", ["12061"]), ("almond", ["12061"]), ("peanut butter", ["16098", "16097"]),
        ("white bread", ["18069"]), ("butter", ["01001", "01145"]), ("cheddar", ["01009"]),
        ("cheddar cheese", ["01009"]), ("cottage cheese", ["01012"]),
        ("greek yogurt", ["01256", "01287", "01293"]), ("plain yogurt", ["01116", "01117", "01118"]),
        ("coffee", ["14209"]), ("beer", ["14003"]), ("red wine", ["14096"]), ("orange juice", ["09206"]),
        ("ground beef", rawGroundBeef), ("beef ground", rawGroundBeef), ("bacon", ["10123", "10860", "10861", "10862", "10994"]),
        ("olive oil", ["04053"]), ("sugar", ["19335"]), ("honey", ["19296"]),
        ("lentils", ["16069", "16070"]), ("chickpeas", ["16056", "16057"]), ("black beans", ["16014", "16015"]),
        ("sweet potato", ["11507"]), ("grape leaves", ["11974"]), ("oats", ["20038", "08120"]),
        ("rice", whiteRice), ("brown rice", ["20036", "20037"]), ("pasta", ["20120", "20121"]),
        ("tofu", ["16427", "16426", "16126"]),
    ]

    @Test(arguments: cases)
    func topResultIsTheFoodMeant(query: String, expected: Set<String>) throws {
        let database = try FoodCatalogTestDatabase.shared.get()
        let results = try database.searchFoods(query, limit: 5)
        let top = try #require(results.first, "no result for \"\(query)\"")
        #expect(
            expected.contains(top.id),
            "\"\(query)\" → \(results.prefix(3).map { "\($0.id) \($0.name)" }.joined(separator: " | "))"
        )
    }
}
