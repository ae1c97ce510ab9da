import Testing
import WDietCore

/// 002's MealCategoryTests, as cases of `JournalCategoryDetector` (issue 18): each keyword set, keywords over the
/// time buckets, every bucket's edges, case and punctuation, image labels as extra words, Indian and South Indian
/// dishes, and the priority when two sets match.
@Suite("Journal category detection")
struct JournalCategoryDetectorTests {
    typealias Case = (description: String, hour: Int, expected: JournalCategory)

    @Test("a keyword decides, whatever the hour", arguments: [
        // beverage
        ("black coffee", 14, .beverage), ("green tea", 21, .beverage), ("mango smoothie", 8, .beverage),
        ("orange juice", 19, .beverage), ("a glass of wine", 13, .beverage), ("cold beer", 9, .beverage),
        // dessert
        ("chocolate cake", 8, .dessert), ("vanilla ice cream", 12, .dessert), ("apple pie", 10, .dessert),
        ("brownie", 16, .dessert), ("tiramisu", 7, .dessert),
        // breakfast
        ("bowl of oatmeal", 20, .breakfast), ("pancakes with syrup", 19, .breakfast), ("scrambled eggs", 22, .breakfast),
        ("avocado toast", 13, .breakfast), ("granola and yogurt", 18, .breakfast),
        // lunch
        ("turkey sandwich", 8, .lunch), ("caesar salad", 19, .lunch), ("chicken burrito", 22, .lunch),
        ("sushi", 20, .lunch),
        // snack
        ("potato chips", 12, .snack), ("handful of almonds", 8, .snack), ("popcorn", 19, .snack),
        ("protein bar", 13, .snack),
        // dinner
        ("steak and potatoes", 12, .dinner), ("spaghetti bolognese", 8, .dinner), ("pepperoni pizza", 13, .dinner),
        ("salmon with rice", 9, .dinner),
    ] as [Case])
    func keyword(description: String, hour: Int, expected: JournalCategory) {
        #expect(JournalCategoryDetector.detect(hour: hour, description: description) == expected)
    }

    @Test("Indian and South Indian dishes by content, not by the clock", arguments: [
        ("idli sambar", 20, .breakfast), ("masala dosa", 21, .breakfast), ("medu vada", 18, .breakfast),
        ("upma", 13, .breakfast), ("poha", 19, .breakfast), ("aloo paratha", 22, .breakfast),
        ("chicken biryani", 9, .lunch), ("rajma chawal", 20, .lunch), ("veg thali", 8, .lunch),
        ("mango lassi", 13, .beverage), ("masala chai", 20, .beverage), ("filter coffee", 16, .beverage),
        ("samosa", 9, .snack), ("onion pakora", 12, .snack), ("bhel", 21, .snack),
        ("paneer tikka", 9, .dinner), ("butter chicken and naan", 11, .dinner), ("dal and roti", 8, .dinner),
        ("rice kheer", 8, .dessert), ("gulab jamun", 13, .dessert), ("jalebi", 9, .dessert), ("payasam", 12, .dessert),
    ] as [Case])
    func indian(description: String, hour: Int, expected: JournalCategory) {
        #expect(JournalCategoryDetector.detect(hour: hour, description: description) == expected)
    }

    @Test("priority beverage → dessert → breakfast → lunch → snack → dinner when two sets match", arguments: [
        ("coffee and cake", 15, .beverage),          // beverage over dessert
        ("cake and toast", 8, .dessert),             // dessert over breakfast
        ("toast and salad", 12, .breakfast),         // breakfast over lunch
        ("salad and chips", 15, .lunch),             // lunch over snack
        ("chips and pizza", 19, .snack),             // snack over dinner
        ("masala chai with samosa", 17, .beverage),  // "masala" is dinner, "chai" beverage
        ("dosa with tea", 8, .beverage),
        ("kheer after biryani", 13, .dessert),
    ] as [Case])
    func priority(description: String, hour: Int, expected: JournalCategory) {
        #expect(JournalCategoryDetector.detect(hour: hour, description: description) == expected)
    }

    @Test("no keyword: the hour's bucket (5–10 breakfast, 11–14 lunch, 15–16 snack, 17–20 dinner, else snack)", arguments: [
        (0, JournalCategory.snack), (4, .snack), (5, .breakfast), (7, .breakfast), (10, .breakfast), (11, .lunch),
        (14, .lunch), (15, .snack), (16, .snack), (17, .dinner), (20, .dinner), (21, .snack), (23, .snack),
    ])
    func bucket(hour: Int, expected: JournalCategory) {
        #expect(JournalCategoryDetector.detect(hour: hour, description: "leftovers from the fridge") == expected)
        #expect(JournalCategoryDetector.timeBucket(hour: hour) == expected)
    }

    @Test func emptyDescriptionFallsToTheHour() {
        #expect(JournalCategoryDetector.detect(hour: 12, description: "") == .lunch)
        #expect(JournalCategoryDetector.detect(hour: 18, description: "   ,  ") == .dinner)
    }

    @Test("case, commas and punctuation do not hide a keyword", arguments: [
        ("COFFEE", 12, .beverage), ("Pizza,salad", 20, .lunch), ("Idli.", 20, .breakfast), ("(samosa)", 8, .snack),
        ("CHAI!", 12, .beverage),
    ] as [Case])
    func tokenising(description: String, hour: Int, expected: JournalCategory) {
        #expect(JournalCategoryDetector.detect(hour: hour, description: description) == expected)
    }

    @Test("plurals find their singular", arguments: [
        ("two idlis", 20, .breakfast), ("three samosas", 9, .snack), ("chocolate cookies", 8, .dessert),
        ("waffles", 19, .breakfast),
    ] as [Case])
    func plurals(description: String, hour: Int, expected: JournalCategory) {
        #expect(JournalCategoryDetector.detect(hour: hour, description: description) == expected)
    }

    @Test func partialWordsAreNotKeywords() {
        // "teapot" is not "tea", "cakewalk" not "cake": whole tokens only.
        #expect(JournalCategoryDetector.detect(hour: 12, description: "teapot cakewalk") == .lunch)
    }

    @Test("image labels are extra words: they decide when the description does not", arguments: [
        ("my plate", ["ice_cream"], 12, .dessert),
        ("something", ["Coffee", "cup"], 19, .beverage),
        ("", ["pizza"], 8, .dinner),
        ("lunch plate", ["cake"], 12, .dessert),   // priority across description and labels together
        ("a photo", ["plate", "table"], 8, .breakfast),  // labels without a keyword: the bucket
    ] as [(String, [String], Int, JournalCategory)])
    func labels(description: String, labels: [String], hour: Int, expected: JournalCategory) {
        #expect(JournalCategoryDetector.detect(hour: hour, description: description, visionLabels: labels) == expected)
    }

    @Test func tokensAreLowercasedAndSplitOnWhitespaceCommasAndUnderscores() {
        #expect(JournalCategoryDetector.tokens(of: "Idli, Sambar\tand  ice_cream.") == ["idli", "sambar", "and", "ice", "cream"])
    }

    @Test func everyCategoryHasKeywordsAndThePriorityIs002s() {
        #expect(JournalCategoryDetector.priority == [.beverage, .dessert, .breakfast, .lunch, .snack, .dinner])
        for category in JournalCategory.allCases { #expect((JournalCategoryDetector.keywords[category]?.count ?? 0) >= 20) }
    }
}
