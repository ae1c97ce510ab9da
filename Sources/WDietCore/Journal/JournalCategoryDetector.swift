/// 002's `CategoryDetectionService`: the category of a new entry from its words first, then its hour.
///
/// - The description and the photo's labels (a device's image labels, when a client has them; the server
///   classifies nothing) are cut into tokens: lowercased, split on whitespace, commas and underscores, with
///   punctuation around a word dropped ("Coffee." is "coffee"; 002 split on whitespace and commas only).
/// - Each token is looked up in six keyword sets in 002's priority order: beverage → dessert → breakfast → lunch →
///   snack → dinner. The first category with any matching token wins, so "masala chai" is a beverage although
///   "masala" is a dinner word, and "idli sambar" at 20:00 is breakfast. A plural finds its singular ("idlis").
/// - Only when no token matches does the hour decide: 5–10 breakfast, 11–14 lunch, 15–16 snack, 17–20 dinner,
///   else (21–4) snack.
public enum JournalCategoryDetector {
    /// The keyword sets in the order they are consulted.
    public static let priority: [JournalCategory] = [.beverage, .dessert, .breakfast, .lunch, .snack, .dinner]

    public static let keywords: [JournalCategory: Set<String>] = [
        .beverage: [
            "coffee", "tea", "chai", "latte", "cappuccino", "espresso", "americano", "mocha", "macchiato", "frappe",
            "frappuccino", "matcha", "juice", "smoothie", "milkshake", "shake", "soda", "cola", "coke", "lemonade",
            "water", "beer", "wine", "cocktail", "whiskey", "whisky", "vodka", "rum", "gin", "kombucha", "drink",
            "beverage", "lassi", "chaas", "buttermilk", "sharbat", "thandai", "jaljeera", "nimbu", "panakam",
            "kashayam", "decoction", "horlicks", "bournvita", "cocoa",
        ],
        .dessert: [
            "dessert", "cake", "cupcake", "cheesecake", "cookie", "brownie", "brownies", "pie", "tart", "pudding",
            "icecream", "ice", "gelato", "sundae", "custard", "mousse", "tiramisu", "donut", "doughnut", "macaron",
            "chocolate", "candy", "sweets", "fudge", "sorbet", "crumble", "cobbler", "baklava", "kheer", "gulab",
            "jamun", "jalebi", "halwa", "halva", "ladoo", "laddu", "laddoo", "barfi", "burfi", "rasgulla", "rasmalai",
            "payasam", "kulfi", "shrikhand", "peda", "sandesh", "falooda", "kesari", "mithai", "modak",
        ],
        .breakfast: [
            "breakfast", "cereal", "oatmeal", "oats", "porridge", "granola", "muesli", "pancake", "waffle",
            "omelette", "omelet", "scrambled", "toast", "bagel", "croissant", "muffin", "bacon", "brunch", "parfait",
            "idli", "dosa", "dosai", "vada", "upma", "poha", "paratha", "parantha", "uttapam", "uthappam", "pongal",
            "appam", "puttu", "idiyappam", "pesarattu", "chilla", "cheela", "thepla", "sheera", "rava",
        ],
        .lunch: [
            "lunch", "sandwich", "sandwiches", "salad", "wrap", "burrito", "panini", "sub", "burger", "quesadilla",
            "bento", "sushi", "poke", "thali", "biryani", "biriyani", "pulao", "pilaf", "rajma", "chole", "chawal",
            "curdrice", "bisibelebath", "kootu", "poriyal", "avial", "thoran",
        ],
        .snack: [
            "snack", "chips", "crisps", "popcorn", "nuts", "almonds", "cashews", "peanuts", "pistachios", "trail",
            "crackers", "pretzels", "bar", "apple", "banana", "grapes", "berries", "fruit", "hummus", "samosa",
            "pakora", "pakoda", "bhaji", "bajji", "bhajji", "chaat", "bhel", "panipuri", "golgappa", "pav",
            "murukku", "namkeen", "dhokla", "kachori", "khakhra", "chakli", "sev", "makhana", "bonda", "sundal",
            "mixture",
        ],
        .dinner: [
            "dinner", "supper", "steak", "pasta", "spaghetti", "lasagna", "lasagne", "pizza", "curry", "roast",
            "salmon", "stew", "risotto", "ramen", "tacos", "casserole", "tikka", "masala", "paneer", "korma",
            "vindaloo", "tandoori", "naan", "roti", "chapati", "phulka", "dal", "daal", "dhal", "sabzi", "kofta",
            "rasam", "kadai", "makhani", "khichdi",
        ],
    ]

    /// The category of an entry eaten at `hour` (0–23) with this description and these image labels.
    public static func detect(hour: Int, description: String, visionLabels: [String] = []) -> JournalCategory {
        let tokens = tokens(of: description) + visionLabels.flatMap(tokens(of:))
        return keywordCategory(tokens) ?? timeBucket(hour: hour)
    }

    /// The category that a token names, by priority; nil when none does.
    public static func keywordCategory(_ tokens: [String]) -> JournalCategory? {
        for category in priority {
            let set = keywords[category] ?? []
            if tokens.contains(where: { set.contains($0) || ($0.count > 3 && $0.hasSuffix("s") && set.contains(String($0.dropLast()))) }) {
                return category
            }
        }
        return nil
    }

    /// 002's time buckets: 5–10 breakfast, 11–14 lunch, 15–16 snack, 17–20 dinner, anything else snack.
    public static func timeBucket(hour: Int) -> JournalCategory {
        switch hour {
        case 5...10: return .breakfast
        case 11...14: return .lunch
        case 15...16: return .snack
        case 17...20: return .dinner
        default: return .snack
        }
    }

    /// Lowercased words split on whitespace, commas and underscores, with the punctuation around each dropped.
    public static func tokens(of text: String) -> [String] {
        text.lowercased()
            .split { $0.isWhitespace || $0 == "," || $0 == "_" }
            .map { $0.trimmed(of: punctuation) }
            .filter { !$0.isEmpty }
    }

    static let punctuation: Set<Character> = [".", "!", "?", ";", ":", "(", ")", "[", "]", "\"", "'", "’", "“", "”", "-", "/", "&", "+", "*"]
}

extension Substring {
    fileprivate func trimmed(of set: Set<Character>) -> String {
        var slice = self[...]
        while let first = slice.first, set.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, set.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
