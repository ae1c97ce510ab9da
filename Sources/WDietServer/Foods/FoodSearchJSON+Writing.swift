import WDietStore

/// The search page written by `JSONWriter`: every keystroke of as-you-type search asks for one, and Foundation's
/// `JSONEncoder` was about a third of an uncached search's server CPU (perf, issue 17). Keys in sorted order, as
/// `APICoding.encoder` writes them; `JSONWriterTests` compares the two on real pages.
extension FoodSearchJSON {
    func jsonBytes() -> [UInt8] {
        var json = JSONWriter(capacity: 512 + results.count * 640)
        json.object { json in
            json.key("results")
            json.array(results) { json, food in
                json.object { json in
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
                    json.member("shortName", food.shortName)
                }
            }
        }
        return json.bytes
    }
}
