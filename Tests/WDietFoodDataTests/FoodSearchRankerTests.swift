import Testing
import WDietFoodData

@Suite("Food search ranking rules")
struct FoodSearchRankerTests {
    static func candidate(_ name: String, prior: Double = 0) -> FoodSearchCandidate {
        FoodSearchCandidate(id: name, longDescription: name, prior: prior, bm25: -5)
    }

    static func order(_ names: [String], for text: String) -> [String] {
        FoodSearchRanker.rank(names.map { candidate($0) }, for: FoodSearchQuery(text)).map(\.id)
    }

    @Test func segmentsKeepParenthesesTogetherAndMarkAsides() {
        let segments = FoodSearchRanker.segments(of: "Grapes, red or green (European type, such as Thompson seedless), raw")
        #expect(segments.count == 3)
        #expect(segments[1].first { $0.word == "thompson" }?.isAside == true)
        #expect(segments[1].first { $0.word == "red" }?.isAlternative == true)
        #expect(segments[2].map(\.word) == ["raw"])
    }

    @Test func categoryHeadsExtendToTheSecondSegment() {
        #expect(FoodSearchRanker.headSegmentCount(FoodSearchRanker.segments(of: "Fish, salmon, pink, raw")) == 2)
        #expect(FoodSearchRanker.headSegmentCount(FoodSearchRanker.segments(of: "Nuts, almonds")) == 2)
        #expect(FoodSearchRanker.headSegmentCount(FoodSearchRanker.segments(of: "Soup, black bean, canned")) == 1)
        #expect(FoodSearchRanker.headSegmentCount(FoodSearchRanker.segments(of: "Bananas, raw")) == 1)
    }

    @Test func theFoodItselfBeatsProductsNamedAfterIt() {
        #expect(Self.order(["Snacks, banana chips", "Bananas, dehydrated, or banana powder", "Bananas, raw"], for: "banana")
            .first == "Bananas, raw")
    }

    @Test func rawAndPlainBeatProcessed() {
        #expect(Self.order(["Strawberries, frozen, sweetened, sliced", "Strawberries, raw", "Strawberries, canned, heavy syrup pack"],
                           for: "strawberries").first == "Strawberries, raw")
    }

    @Test func anEarlyMatchBeatsALateOne() {
        #expect(Self.order(["Pie, apple, commercially prepared", "Apples, raw, with skin"], for: "apple").first
            == "Apples, raw, with skin")
    }

    @Test func aCompleteWordBeatsAPrefixOfALongerOne() {
        #expect(Self.order(["Eggplant, raw", "Egg, whole, raw, fresh"], for: "egg").first == "Egg, whole, raw, fresh")
    }

    @Test func specialFormsGoDown() {
        #expect(Self.order(["Milk, human, mature, fluid", "Milk, whole, 3.25% milkfat, with added vitamin D"], for: "milk")
            .first == "Milk, whole, 3.25% milkfat, with added vitamin D")
        #expect(Self.order(["Bacon, meatless", "Bacon, pre-sliced, reduced/low sodium, unprepared"], for: "bacon").first
            == "Bacon, pre-sliced, reduced/low sodium, unprepared")
    }

    @Test func wordsTheQueryAsksForAreNotPenalized() {
        #expect(Self.order(["Strawberries, raw", "Strawberries, frozen, unsweetened"], for: "frozen strawberries").first
            == "Strawberries, frozen, unsweetened")
    }

    @Test func priorSeparatesOtherwiseEqualNames() {
        let ranked = FoodSearchRanker.rank(
            [Self.candidate("Chicken, fried", prior: -25), Self.candidate("Chicken, roasted", prior: 8)],
            for: FoodSearchQuery("chicken")
        )
        #expect(ranked.first?.id == "Chicken, roasted")
    }

    @Test func priorFavoursEverydayUnbrandedFoods() {
        let banana = Food(id: "09040", longDescription: "Bananas, raw", isSurveyFood: true, foodGroupCode: "0900",
                          foodGroupDescription: "Fruits and Fruit Juices")
        let babyfood = Food(id: "03000", longDescription: "Babyfood, bananas, strained", foodGroupCode: "0300",
                            foodGroupDescription: "Baby Foods")
        let branded = Food(id: "19000", longDescription: "Snacks, KELLOGG'S banana bites", foodGroupCode: "2500",
                           foodGroupDescription: "Snacks")
        #expect(FoodSearchRanker.prior(of: banana) > FoodSearchRanker.prior(of: branded))
        #expect(FoodSearchRanker.prior(of: branded) > FoodSearchRanker.prior(of: babyfood))
        #expect(FoodSearchRanker.isBranded(branded))
        #expect(!FoodSearchRanker.isBranded(banana))
        #expect(FoodSearchRanker.staticOrderKey(of: banana) > FoodSearchRanker.staticOrderKey(of: babyfood))
    }

    @Test func documentSplitsHeadBodyAndOtherNames() {
        let food = Food(id: "15076", longDescription: "Fish, salmon, Atlantic, wild, raw", commonName: "lox",
                        foodGroupCode: "1500", foodGroupDescription: "Finfish and Shellfish Products")
        let document = FoodSearchDocument(food)
        #expect(document.head == "fish salmon")
        #expect(document.body == "atlantic wild raw")
        #expect(document.extra == "lox")
    }
}
