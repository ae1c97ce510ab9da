import Testing
import WDietFoodData

@Suite("Food search text: words, stems, queries")
struct FoodSearchTextTests {
    @Test(arguments: [
        ("strawberries", "strawberry"), ("tomatoes", "tomato"), ("eggs", "egg"), ("leaves", "leaf"),
        ("peaches", "peach"), ("cookies", "cookie"), ("potatoes", "potato"), ("cherries", "cherry"),
        ("cheeses", "cheese"), ("olives", "olive"), ("glasses", "glass"), ("pies", "pie"), ("mangoes", "mango"),
        ("mangos", "mango"), ("sandwiches", "sandwich"), ("loaves", "loaf"), ("breasts", "breast"),
        ("anchovies", "anchovy"), ("gravies", "gravy"), ("brownies", "brownie"), ("halves", "half"),
    ])
    func pluralAndSingularShareAStem(plural: String, singular: String) {
        #expect(FoodSearchText.stem(plural) == FoodSearchText.stem(singular))
    }

    @Test(arguments: ["asparagus", "hummus", "swiss", "molasses", "raw", "egg", "oat", "pea", "2"])
    func wordsThatAreNotPluralsKeepTheirMeaning(word: String) {
        // Stable: stemming twice changes nothing, and these words do not lose a letter to a plural rule.
        let stem = FoodSearchText.stem(word)
        #expect(FoodSearchText.stem(stem) == stem)
        #expect(word.hasPrefix(stem.dropLast()) || stem == word)
    }

    @Test func differentFoodsKeepDifferentStems() {
        #expect(FoodSearchText.stem("peas") != FoodSearchText.stem("peach"))
        #expect(FoodSearchText.stem("dates") != FoodSearchText.stem("data"))
        #expect(FoodSearchText.stem("oats") != FoodSearchText.stem("oatmeal"))
    }

    @Test func wordsAreLowercasedFoldedAndSplit() {
        #expect(FoodSearchText.words("Entrée, KASHI") == ["entree", "kashi"])
        #expect(FoodSearchText.words("McDONALD'S, Big Mac") == ["mcdonalds", "big", "mac"])
        #expect(FoodSearchText.words("Milk, whole, 3.25% milkfat") == ["milk", "whole", "3", "25", "milkfat"])
        #expect(FoodSearchText.words("Potatoes, o'brien, frozen") == ["potatoes", "obrien", "frozen"])
        #expect(FoodSearchText.words("Jalape\u{F1}o peppers") == ["jalapeno", "peppers"])
        #expect(FoodSearchText.words("  ,; ") == [])
    }

    @Test func termsDropStopWords() {
        #expect(FoodSearchText.terms("Macaroni and cheese, with milk") == ["macaroni", "chees", "milk"])
    }

    @Test func theLastWordIsAPrefixWhileTyping() {
        let typing = FoodSearchQuery("chicken brea")
        #expect(typing.terms.map(\.word) == ["chicken", "brea"])
        #expect(typing.terms.map(\.isPrefix) == [false, true])
        let done = FoodSearchQuery("chicken breast ")
        #expect(done.terms.map(\.isPrefix) == [false, false])
        #expect(FoodSearchQuery("Strawberries").terms.first?.stem == FoodSearchText.stem("strawberry"))
    }

    @Test func stopWordsAreDroppedUnlessTheyAreAllThereIs() {
        #expect(FoodSearchQuery("macaroni and cheese").terms.map(\.word) == ["macaroni", "cheese"])
        #expect(FoodSearchQuery("and").terms.map(\.word) == ["and"])
        #expect(FoodSearchQuery("   ").isEmpty)
        #expect(FoodSearchQuery("%%").isEmpty)
    }

    @Test func repeatedWordsCountOnce() {
        let query = FoodSearchQuery("egg eggs")
        #expect(query.terms.count == 1)
        #expect(query.terms.first?.isPrefix == false)
    }

    @Test func longQueriesAreCapped() {
        let query = FoodSearchQuery("one two three four five six seven eight nine ten")
        #expect(query.terms.count == FoodSearchQuery.maximumTerms)
    }
}
