/// Everyday words for foods that USDA names otherwise: "oatmeal" is "Cereals, oats, …, cooked with water",
/// "ketchup" is "Catsup", "fries" are "Potatoes, french fried". Written by hand for w-diet (not derived from
/// the catalog): each everyday phrase becomes the catalog words that name the food meant, and the ranker then
/// orders the foods those words find. See docs/food-search.md for when a phrase is replaced.
public enum FoodSearchSynonyms {
    /// Everyday phrase → catalog words. Keys and values are plain words; both are stemmed when used.
    public static let table: [String: String] = [
        // Porridge and breakfast
        "oatmeal": "oats cooked water", "porridge": "oats cooked water", "oat porridge": "oats cooked water",
        "overnight oats": "oats regular quick dry", "cornflakes": "corn flakes",
        "scrambled egg": "egg whole cooked scrambled", "scrambled eggs": "egg whole cooked scrambled",
        "boiled egg": "egg whole cooked hard boiled", "hard boiled egg": "egg whole cooked hard boiled",
        "fried egg": "egg whole cooked fried", "omelette": "egg whole cooked omelet", "omelet": "egg whole cooked omelet",
        "poached egg": "egg whole cooked poached",
        // Fast food and snacks
        "fries": "potatoes french fried", "chips": "potato chips", "crisps": "potato chips",
        "potato crisps": "potato chips", "hamburger": "fast foods hamburger", "burger": "fast foods hamburger",
        "cheeseburger": "fast foods cheeseburger", "hot dog": "frankfurter", "hotdog": "frankfurter",
        "nuggets": "chicken nuggets", "sweets": "candies", "candy": "candies",
        // Drinks
        "soda": "carbonated cola", "coke": "carbonated cola", "cola": "carbonated cola",
        "soft drink": "carbonated cola", "fizzy drink": "carbonated cola", "pop": "carbonated cola",
        "oj": "orange juice", "black coffee": "coffee brewed",
        "espresso": "coffee brewed espresso", "whey": "whey protein powder", "protein shake": "whey protein powder",
        // Condiments
        "ketchup": "catsup", "mayo": "salad dressing mayonnaise regular",
        "mayonnaise": "salad dressing mayonnaise regular", "jelly": "jellies", "jam": "jams preserves",
        // Meat and fish
        "mince": "beef ground", "minced beef": "beef ground", "beef mince": "beef ground",
        "hamburger meat": "beef ground", "prawn": "shrimp", "prawns": "shrimp", "steak": "beef steak",
        "pork mince": "pork ground", "turkey mince": "turkey ground", "chicken mince": "chicken ground",
        // Vegetables and fruit with other names
        "aubergine": "eggplant", "courgette": "zucchini", "courgettes": "zucchini", "rocket": "arugula",
        "spring onion": "onions spring scallions", "spring onions": "onions spring scallions",
        "scallion": "onions spring scallions", "scallions": "onions spring scallions",
        "cilantro": "coriander", "garbanzo": "chickpeas", "garbanzos": "chickpeas",
        "mashed potato": "potatoes mashed", "mashed potatoes": "potatoes mashed", "mash": "potatoes mashed",
        "jacket potato": "potatoes baked flesh skin", "baked potato": "potatoes baked flesh skin",
        "yoghurt": "yogurt", "yoghurts": "yogurt", "jello": "gelatin desserts", "swede": "rutabagas",
        "capsicum": "peppers sweet", "bell pepper": "peppers sweet", "beetroot": "beets", "mangetout": "peas edible podded",
        "sweetcorn": "corn sweet yellow", "corn on the cob": "corn sweet yellow",
        // One word for a family, meaning its everyday member
        "spaghetti": "pasta cooked enriched", "granola": "cereals granola homemade", "tea": "tea black brewed",
        "wine": "wine table red", "red wine": "wine table red", "white wine": "wine table white",
        "bread": "bread white commercially prepared", "toast": "bread white commercially prepared toasted",
    ]

    /// One entry, by stems.
    struct Entry {
        var key: [String]
        var replacement: String
    }

    /// Longest keys first, so that "scrambled eggs" wins over a shorter key inside it.
    static let entries: [Entry] = table
        .map { Entry(key: FoodSearchText.terms($0.key), replacement: $0.value) }
        .filter { !$0.key.isEmpty }
        .sorted { $0.key.count != $1.key.count ? $0.key.count > $1.key.count : $0.key.lexicographicallyPrecedes($1.key) }

    /// `entries` by the first stem of their key, each list in `entries`' order: a query word is compared with the
    /// keys that start with it only, not with every key (~1.7 % of an uncached search's server CPU).
    static let entriesByFirstStem: [String: [Entry]] = Dictionary(grouping: entries, by: { $0.key[0] })

    /// The stems of every key: words a person types that the catalog may not have ("porridge").
    public static let keyWords: Set<String> = Set(entries.flatMap(\.key))
}
