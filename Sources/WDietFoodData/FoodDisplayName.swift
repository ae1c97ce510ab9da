/// A USDA name shortened for reading in a list of results: "Chicken, broilers or fryers, breast, meat only,
/// cooked, roasted" → "Chicken, breast, cooked, roasted"; "Cereals, oats, regular and quick, unenriched, cooked
/// with water (includes boiling and microwaving), without salt" → "Oats, cooked with water". The full name stays
/// what is stored and logged; this is only what a result row shows first.
public enum FoodDisplayName {
    /// At most this many comma-separated parts are kept.
    public static let maximumSegments = 4

    /// First parts that only name a category ("Cereals, oats"); dropped when something follows.
    static let categories: Set<String> = [
        "cereals", "fish", "nuts", "seeds", "spices", "crustaceans", "mollusks", "beverages", "alcoholic beverage",
        "game meat", "fast foods", "snacks", "usda commodity", "cereals ready-to-eat", "oil",
    ]

    /// Parts that say nothing a person chooses by: alternatives, fortification, salt, how USDA sampled.
    static let noisePrefixes = [
        "with added vitamin", "with added calcium", "with added nutrient", "without salt", "with salt", "without added salt", "with added salt", "not fortified",
        "unenriched", "enriched", "fortified", "includes", "all commercial", "all types", "all varieties",
        "year round", "mixed species", "meat only", "fluid", "commercial", "regular and quick", "as purchased",
        "salt added", "salt not added", "drained", "unheated", "ns as to", "nfs",
    ]

    /// Short names for a page of results. Where two foods would read the same ("Chicken, breast, skinless, raw"
    /// for the plain one and the one "with added solution"), they keep every part that is not noise, and their
    /// parts then too, and their full names if even that reads the same.
    public static func short(_ longDescriptions: [String]) -> [String] {
        var names = longDescriptions.map(remembered)
        let fallbacks: [(String) -> String] = [
            { name in allSegmentNames.value(for: name) { short(name, maximumSegments: .max) } },
            { name in noiseKeptNames.value(for: name) { short(name, maximumSegments: .max, droppingNoise: false) } },
            { $0 },
        ]
        for fallback in fallbacks {
            var counts = [String: Int](minimumCapacity: names.count)
            for name in names { counts[name, default: 0] += 1 }
            guard counts.values.contains(where: { $0 > 1 }) else { break }
            for index in names.indices where counts[names[index], default: 0] > 1 {
                names[index] = fallback(longDescriptions[index])
            }
        }
        return names
    }

    /// `short(_:)` with the default limits, remembered: a server shows the same few thousand names over and over,
    /// and working one out costs more than the rest of a result's JSON.
    static func remembered(_ longDescription: String) -> String {
        shortNames.value(for: longDescription) { short(longDescription) }
    }

    private static let shortNames = BoundedCache<String, String>(capacity: 50_000)
    /// The longer names a page falls back to when two of its short names are the same (pages of one kind of food
    /// do, every time: "Chicken, breast, …").
    private static let allSegmentNames = BoundedCache<String, String>(capacity: 50_000)
    private static let noiseKeptNames = BoundedCache<String, String>(capacity: 50_000)

    public static func short(
        _ longDescription: String, maximumSegments: Int = FoodDisplayName.maximumSegments, droppingNoise: Bool = true
    ) -> String {
        var segments = topLevelSegments(longDescription)
        guard segments.count > 1 else { return segments.first ?? longDescription }
        if categories.contains(segments[0].lowercased()) {
            segments.removeFirst()
            segments[0] = capitalizedFirst(segments[0])
        }
        var kept = [segments[0]]
        for segment in segments.dropFirst() {
            let lower = segment.lowercased()
            if droppingNoise, lower.contains(" or ") || noisePrefixes.contains(where: { lower.hasPrefix($0) }) { continue }
            kept.append(segment)
        }
        guard kept.count > maximumSegments else { return kept.joined(separator: ", ") }
        // Too many parts: keep the first ones, and the one that says how the food is prepared ("raw", "cooked").
        var short = Array(kept.prefix(maximumSegments - 1))
        if let preparation = kept.dropFirst(maximumSegments - 1).last(where: isPreparation) {
            short.append(preparation)
        } else {
            short.append(kept[maximumSegments - 1])
        }
        return short.joined(separator: ", ")
    }

    static let preparationWords: Set<String> = [
        "raw", "cooked", "roasted", "boiled", "baked", "fried", "grilled", "broiled", "braised", "stewed", "steamed",
        "dry", "dried", "canned", "frozen", "toasted", "prepared", "unprepared", "brewed", "smoked",
    ]

    static func isPreparation(_ segment: String) -> Bool {
        FoodSearchText.words(segment).contains { preparationWords.contains($0) }
    }

    /// `text` without its parenthesised asides: "1 medium (7\" to 7-7/8\" long)" → "1 medium".
    public static func withoutAsides(_ text: String) -> String {
        var kept = ""
        var depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            default: if depth == 0 { kept.append(character) }
            }
        }
        let trimmed = kept.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return trimmed.isEmpty ? text : trimmed
    }

    /// The comma-separated parts outside parentheses, trimmed, with parenthesised asides left out.
    static func topLevelSegments(_ text: String) -> [String] {
        var segments: [String] = []
        var current = ""
        var depth = 0
        for character in text {
            switch character {
            case "(": depth += 1
            case ")": depth = max(0, depth - 1)
            case "," where depth == 0:
                segments.append(current)
                current = ""
            default:
                if depth == 0 { current.append(character) }
            }
        }
        segments.append(current)
        return segments
            .map { $0.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .filter { !$0.isEmpty }
    }

    static func capitalizedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}
