import Foundation
import WDietCore
import WDietFoodData
import WDietStore

/// An entry turned into logged meals (issue 18 item 5): each food word of its description looked up in the food
/// catalog (the food search Log Meal uses), its best matches offered with their portions, each one tap to log
/// through `POST /api/v1/meals/batch` on the entry's day, in the slot of its category.
struct JournalToMeals: Sendable {
    static let matchesPerWord = 3
    static let maxWords = 8

    struct Word: Sendable {
        var word: String
        var foods: [FoodJSON]
    }

    /// The entry's food words (002's tokeniser: stopwords, numbers and one-letter words dropped), in the order
    /// written, at most 8.
    static func words(of entry: JournalEntry) -> [String] {
        Array(JournalWords.foods(in: entry.processedDescription).prefix(maxWords))
    }

    /// The catalog's best matches for each word; a word without any is kept with none (the page says so).
    static func matches(for entry: JournalEntry, services: AppServices) async throws -> [Word] {
        var result: [Word] = []
        for word in words(of: entry) {
            let found = try await services.foods.searchFoods(word, limit: matchesPerWord)
            let names = FoodDisplayName.short(found.map(\.name))
            result.append(Word(word: word, foods: zip(found, names).map { FoodJSON($0.0, shortName: $0.1) }))
        }
        return result
    }

    /// The meal slot of the entry's category: breakfast, lunch and dinner as they are; snack, dessert and beverage
    /// are snacks; none is the slot of its time (`MealSlot`'s buckets).
    static func slot(of entry: JournalEntry) -> String {
        switch entry.category {
        case .breakfast: "breakfast"
        case .lunch: "lunch"
        case .dinner: "dinner"
        case .snack, .dessert, .beverage: "snack"
        case nil: MealSlot(localHour: entry.time.hour).rawValue
        }
    }
}

/// `/journal/entries/{id}/meals`: the entry, and under it each word with its catalog matches, a portion and "Log".
struct JournalToMealsPage: Sendable {
    struct Portion: Sendable {
        var label: String
        var isCommon: Bool
    }

    struct Food: Sendable {
        var id: String
        var name: String
        var fullName: String
        var kcalPer100g: String
        var portions: [Portion]
        var logLabel: String
        var fieldId: String
    }

    struct Word: Sendable {
        var word: String
        var foods: [Food]
        var hasFoods: Bool
        var noMatch: String
    }

    var chrome: PageChrome
    var journalNav: JournalViewsNav
    var entry: JournalListEntry
    var entryDate: String
    var slot: String
    var words: [Word]
    var hasWords: Bool
    var catalogMissing: Bool

    init(chrome: PageChrome, entry: JournalEntry, words: [JournalToMeals.Word], catalogMissing: Bool) {
        let strings = Strings.current
        self.chrome = chrome
        self.catalogMissing = catalogMissing
        journalNav = JournalViewsNav(current: .none)
        self.entry = JournalListEntry(entry)
        entryDate = entry.date.iso
        slot = JournalToMeals.slot(of: entry)
        self.words = words.enumerated().map { wordIndex, word in
            Word(word: word.word, foods: word.foods.enumerated().map { foodIndex, food in
                let common = food.commonPortion?.label
                return Food(
                    id: food.id, name: food.shortName, fullName: food.name,
                    kcalPer100g: strings("journalViews.kcalPer100g", ["kcal": strings.number(food.kcalPer100g)]),
                    portions: food.portions.map { Portion(label: $0.label, isCommon: $0.label == common) },
                    logLabel: strings("journalViews.logFood", ["food": food.shortName]),
                    fieldId: "portion-\(wordIndex)-\(foodIndex)")
            }, hasFoods: !word.foods.isEmpty, noMatch: strings("journalViews.noFoodMatch", ["word": word.word]))
        }
        hasWords = !self.words.isEmpty
    }
}
