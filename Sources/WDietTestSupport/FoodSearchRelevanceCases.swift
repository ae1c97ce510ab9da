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
    /// Eggs are eaten cooked (docs/food-search.md): a plain cooked whole egg, or the raw one.
    public static let wholeEgg: Set<String> = ["01123", "01129", "01131", "01132", "01128"]
    /// Potatoes are eaten cooked: boiled or baked, with or without salt, or the raw one.
    public static let potato: Set<String> = ["11352", "11365", "11831", "11674", "11828", "11363", "11833", "11367"]
    /// Ground beef, raw or cooked (crumbles, patties, unspecified fat).
    public static let groundBeef: Set<String> = rawGroundBeef.union([
        "23220", "23568", "23558", "23563", "23573", "23578", "23574", "23569", "23564", "23559", "23579", "23566",
    ])
    public static let cookedOats: Set<String> = ["08121", "08180"]
    public static let cookedSalmon: Set<String> = ["15086", "15237", "15247", "15210", "15088"]

    public static let all: [(query: String, expected: Set<String>)] = [
        ("banana", ["09040"]), ("banan", ["09040"]), ("bananas", ["09040"]), ("Bananas, raw", ["09040"]),
        ("apple", ["09003"]), ("apples", ["09003"]), ("appl", ["09003"]),
        ("strawberry", ["09316"]), ("strawberries", ["09316"]), ("strawb", ["09316"]),
        ("egg", wholeEgg), ("eggs", wholeEgg), ("whole egg", wholeEgg), ("raw egg", ["01123"]),
        ("milk", wholeMilk), ("whole milk", wholeMilk), ("milk whole", wholeMilk),
        ("chicken breast", chickenBreast), ("breast chicken", chickenBreast), ("chick brea", chickenBreast),
        ("chicken breasts", chickenBreast),
        ("tomato", ["11529"]), ("tomatoes", ["11529"]),
        ("potato", potato), ("potatoes", potato),
        ("carrot", ["11124"]), ("carrots", ["11124"]), ("broccoli", ["11090"]), ("spinach", ["11457"]),
        ("avocado", ["09037"]), ("orange", ["09200"]), ("onion", ["11282"]), ("garlic", ["11215"]),
        ("cucumber", ["11205"]), ("pear", ["09252"]), ("peach", ["09236"]), ("peaches", ["09236"]),
        ("mango", ["09176"]), ("pineapple", ["09266"]), ("watermelon", ["09326"]), ("waterm", ["09326"]),
        ("blueberries", ["09050"]), ("blueberry", ["09050"]), ("grapes", ["09132", "09131"]),
        ("salmon", plainSalmon.union(cookedSalmon)), ("tuna", ["15121", "15119", "15117", "15127"]), ("shrimp", ["15270", "15271", "15149", "15151"]),
        ("almonds", ["12061"]), ("almond", ["12061"]), ("peanut butter", ["16098", "16097"]),
        ("white bread", ["18069"]), ("butter", ["01001", "01145"]), ("cheddar", ["01009"]),
        ("cheddar cheese", ["01009"]), ("cottage cheese", ["01012"]),
        ("greek yogurt", ["01256", "01287", "01293"]), ("plain yogurt", ["01116", "01117", "01118"]),
        ("coffee", ["14209"]), ("beer", ["14003"]), ("red wine", ["14096"]), ("orange juice", ["09206"]),
        ("ground beef", groundBeef), ("beef ground", groundBeef), ("bacon", ["10123", "10860", "10861", "10862", "10994"]),
        ("olive oil", ["04053"]), ("sugar", ["19335"]), ("honey", ["19296"]),
        ("lentils", ["16069", "16070"]), ("chickpeas", ["16056", "16057"]), ("black beans", ["16014", "16015"]),
        ("sweet potato", ["11507", "11510", "11508"]), ("grape leaves", ["11974"]), ("oats", cookedOats.union(["20038", "08120"])),
        ("rice", whiteRice), ("brown rice", ["20036", "20037"]), ("pasta", ["20120", "20121"]),
        ("tofu", ["16427", "16426", "16126"]),
    ]

    /// Typos and everyday words (issue 17): each expected among the first three results. USDA's names for the
    /// everyday words come from `FoodSearchSynonyms`; typos are corrected against the catalog's vocabulary.
    public static let forgiving: [(query: String, expected: Set<String>)] = [
        // Typos
        ("bananna", ["09040"]), ("banan ", ["09040"]), ("chiken brest", chickenBreast), ("chicken brest", chickenBreast),
        ("brocoli", ["11090"]), ("yoghurt", ["01116", "01117", "01118"]), ("spagetti", ["20121", "20421", "20127"]),
        ("avacado", ["09037"]), ("avacad", ["09037"]), ("strawbery", ["09316"]), ("bluberries", ["09050"]),
        ("potatos", potato), ("cucmber", ["11205"]), ("carots", ["11124"]), ("peanut buter", ["16098", "16097"]),
        ("chedar cheese", ["01009"]), ("salmn", plainSalmon.union(cookedSalmon)), ("letuce", ["11251", "11252", "11253"]),
        ("oragne juice", ["09206"]), ("pinapple", ["09266"]), ("watermellon", ["09326"]), ("almnds", ["12061"]),
        ("cottage chese", ["01012"]), ("tunna", ["15121", "15119", "15117", "15127"]), ("quinao", ["20137"]),
        ("lentills", ["16069", "16070"]), ("cofee", ["14209"]), ("humus", ["16137", "16158"]), ("aple", ["09003"]),
        ("tomatoe", ["11529"]), ("mayonaise", ["04025"]), ("porrige", cookedOats), ("oatmeel", cookedOats),
        ("brocolli", ["11090"]), ("zuchini", ["11477", "11478"]), ("cinamon", ["02010"]),
        // Everyday words
        ("oatmeal", cookedOats), ("porridge", cookedOats), ("fries", ["11403", "11402", "11360", "11359"]),
        ("soda", ["14148", "14400"]), ("coke", ["14148", "14400"]), ("ketchup", ["11935"]),
        ("hamburger", ["21107", "21108"]), ("burger", ["21107", "21108"]), ("chips", ["19411", "19811", "19410"]),
        ("crisps", ["19411", "19811", "19410"]), ("mince", groundBeef), ("scrambled eggs", ["01132"]),
        ("boiled egg", ["01129"]), ("fried egg", ["01128"]), ("omelette", ["01130"]), ("hot dog", ["07963", "07964", "07022"]),
        ("mayo", ["04025"]), ("aubergine", ["11209", "11210"]), ("courgette", ["11477", "11478"]),
        ("prawns", ["15149", "15151", "15270", "15271"]), ("mashed potatoes", ["11371", "11657", "31036"]),
        ("baked potato", ["11674", "11828"]), ("rocket", ["11959"]), ("spring onion", ["11291"]), ("cilantro", ["11165"]),
        ("garbanzo", ["16056", "16057"]), ("jello", ["19172", "19173"]), ("oj", ["09206"]), ("beetroot", ["11080", "11081"]),
        ("sweetcorn", ["11167", "11168"]), ("bread", ["18069"]), ("toast", ["18070"]), ("tea", ["14355"]),
        ("wine", ["14096"]), ("spaghetti", ["20121", "20421"]), ("cheeseburger", ["21089", "21090"]),
        // Cooked where people eat it cooked
        ("rice", whiteRice), ("chicken", ["05009", "05064", "05062"]), ("lentils", ["16070"]), ("quinoa", ["20137"]),
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

extension FoodSearchRelevanceCases {
    /// The share of `forgiving` queries whose expected food a search puts among its first three, and the misses.
    public static func forgivingRate(
        _ search: (String) async throws -> [(id: String, name: String)]
    ) async throws -> (rate: Double, misses: [String]) {
        var misses: [String] = []
        for (query, expected) in forgiving {
            let results = try await search(query)
            if !results.prefix(3).contains(where: { expected.contains($0.id) }) { misses.append(describe(query, results)) }
        }
        return (Double(forgiving.count - misses.count) / Double(forgiving.count), misses)
    }

    /// Issue 17: at least 90 % of the typo and everyday-word queries find their food in the top three.
    public static let minimumForgivingRate = 0.9
}
