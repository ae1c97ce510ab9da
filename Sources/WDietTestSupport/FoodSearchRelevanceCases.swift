/// Everyday queries and the food a person means by them, checked by hand against SR28. Where several foods
/// are equally what a person means (raw or roasted chicken breast, any plain raw salmon), each is accepted.
/// Every food catalog store runs them: SQLite (`FoodSearchRelevanceTests`) and PostgreSQL
/// (`PostgresFoodSearchRelevanceTests`), so the two backends find the same food first.
public enum FoodSearchRelevanceCases {
    public static let chickenBreast: Set<String> = ["05062", "05064", "05057", "05746", "05747"]
    public static let plainSalmon: Set<String> = ["15076", "15236", "15083", "15085", "15078", "15081"]
    public static let whiteRice: Set<String> = ["20044", "20045", "20444", "20445"]
    public static let rawGroundBeef: Set<String> = ["23572", "23567", "23562", "23577", "23557"]
    public static let wholeMilk: Set<String> = ["01077", "01211"]

    public static let all: [(query: String, expected: Set<String>)] = [
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

    /// What people type on the way to those foods, and a few broader words: both backends must return the same
    /// page for each (the same foods in the same order), not only the same first food.
    public static let typedAlong: [String] = [
        "ba", "ban", "chi", "chic", "chicken", "chicken b", "chicken bre", "mi", "mil", "app", "str", "cheese",
        "yogurt", "beef", "bread", "juice", "oil", "beans", "soup", "pizza", "cookies", "cereal", "salad", "pork chop",
        "turkey breast", "whole wheat bread", "skim milk", "salmon fillet", "french fries", "ice cream",
    ]

    /// A test's message for a miss: the query and the first three results.
    public static func describe(_ query: String, _ results: [(id: String, name: String)]) -> String {
        "\"\(query)\" → " + results.prefix(3).map { "\($0.id) \($0.name)" }.joined(separator: " | ")
    }
}
