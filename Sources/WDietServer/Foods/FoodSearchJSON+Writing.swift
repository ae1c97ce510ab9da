import Synchronization
import WDietFoodData
import WDietStore

/// The search page written by `JSONWriter`: every keystroke of as-you-type search asks for one, and Foundation's
/// `JSONEncoder` was about a third of an uncached search's server CPU (perf, issue 17). Keys in sorted order, as
/// `APICoding.encoder` writes them; `JSONWriterTests` compares the two on real pages.
extension FoodSearchJSON {
    func jsonBytes() -> [UInt8] {
        var json = JSONWriter(capacity: 512 + foods.count * 640)
        json.object { json in
            json.key("results")
            json.array(Array(foods.indices)) { json, index in
                json.object { json in
                    // Every member but the page's short name comes from the food alone, so it is written once per
                    // food and remembered: building a food's JSON (its portions, the common one's short label)
                    // was most of the page's cost once the search itself was fast.
                    json.rawMembers(Self.writtenMembers.members(of: foods[index]))
                    json.member("shortName", shortNames[index])
                }
            }
        }
        return json.bytes
    }

    private static let writtenMembers = WrittenMembers()

    /// Each food's members as written, by id; an entry counts only for a result equal to the one it was written
    /// from, so a food whose data changed (a catalog re-imported from outside) is written anew. Looked up by id and
    /// compared, not hashed whole: results come from the search index's entries, so their strings and measures
    /// share storage and compare at once, where hashing every string and measure of the result (as the
    /// whole-result key did) was ~3 % of an uncached search's server CPU. A food's members are ~300–600 bytes:
    /// 20,000 of them stay under ~12 MB; when full, it starts over.
    final class WrittenMembers: Sendable {
        static let capacity = 20_000
        private let entries = Mutex<[String: (result: FoodSearchResult, members: [UInt8])]>([:])

        func members(of result: FoodSearchResult) -> [UInt8] {
            if let entry = entries.withLock({ $0[result.id] }), entry.result == result { return entry.members }
            let members = FoodSearchJSON.membersBeforeShortName(of: result)
            entries.withLock { entries in
                if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
                entries[result.id] = (result, members)
            }
            return members
        }
    }

    /// `"carbsPer100g":…,"commonPortion":{…},…,"proteinPer100g":…`: the members that sort before `shortName`
    /// (which sorts last), with no braces, as `FoodJSON` encodes them.
    static func membersBeforeShortName(of result: FoodSearchResult) -> [UInt8] {
        let food = FoodJSON(result, shortName: "")
        var json = JSONWriter(capacity: 640)
        json.members { json in
            json.member("carbsPer100g", food.carbsPer100g)
            if let common = food.commonPortion {
                json.key("commonPortion")
                json.object { json in
                    json.member("grams", common.grams)
                    json.member("kcal", common.kcal)
                    json.member("label", common.label)
                    json.member("shortLabel", common.shortLabel)
                }
            }
            json.member("fatPer100g", food.fatPer100g)
            json.member("fiberPer100g", food.fiberPer100g)
            json.member("foodGroup", food.foodGroup)
            json.member("id", food.id)
            json.member("kcalPer100g", food.kcalPer100g)
            json.member("name", food.name)
            json.key("portions")
            json.array(food.portions) { json, portion in
                json.object { json in
                    json.member("grams", portion.grams)
                    json.member("label", portion.label)
                }
            }
            json.member("proteinPer100g", food.proteinPer100g)
        }
        return json.bytes
    }
}
