import Foundation

/// The person's recent foods for the Log Meal screen (issue 17), learnt from what they logged: each catalog food
/// (by its NDB number) and each manual meal (by its name) once, with the portion and values of the last time it was
/// logged. Most relevant first:
///
/// 1. foods logged in the slot of now (breakfast foods first in the morning: the slot of each meal, chosen or of its
///    local time, against the slot of `now` in the person's zone), before the rest;
/// 2. then by "frecency": each time a food was logged counts 0.5^(age in days / 14) (a 14-day half-life), so a food
///    eaten daily beats one eaten once yesterday, and last week's habit beats last season's;
/// 3. then the most recent first.
///
/// Pure, so that the server (both backends read the same meals) and the client library rank alike.
public enum RecentFoods {
    public static let halfLifeDays = 14.0
    /// How far back the server reads (days) and how many meals at most.
    public static let windowDays = 60
    public static let maxMeals = 600

    public struct Entry: Hashable, Sendable {
        /// The last meal of this food: its name, food id, grams, values and source are what one tap logs again.
        public var last: Meal
        public var timesLogged: Int
        /// How many of those were in the slot of now.
        public var timesInSlot: Int
        public var score: Double

        public var key: String { RecentFoods.key(of: last) }
    }

    /// A food's identity among the recents: `food:<NDB>` for a catalog food, `name:<lowercased name>` otherwise.
    public static func key(of meal: Meal) -> String {
        if meal.source == .database, let foodId = meal.foodId { return "food:\(foodId)" }
        return "name:" + meal.name.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The recents of `meals` (any order), at most `limit`.
    public static func rank(_ meals: [Meal], now: Date, timeZone: TimeZone, limit: Int = 20) -> [Entry] {
        let slot = MealSlot(now, in: timeZone)
        var entries: [String: Entry] = [:]
        for meal in meals where meal.loggedAt <= now.addingTimeInterval(86_400) {
            let ageDays = max(0, now.timeIntervalSince(meal.loggedAt) / 86_400)
            let weight = pow(0.5, ageDays / halfLifeDays)
            let inSlot = meal.slot(in: timeZone) == slot ? 1 : 0
            let key = key(of: meal)
            if var entry = entries[key] {
                entry.timesLogged += 1
                entry.timesInSlot += inSlot
                entry.score += weight
                if (meal.loggedAt, meal.id.uuidString) > (entry.last.loggedAt, entry.last.id.uuidString) { entry.last = meal }
                entries[key] = entry
            } else {
                entries[key] = Entry(last: meal, timesLogged: 1, timesInSlot: inSlot, score: weight)
            }
        }
        return entries.values.sorted { a, b in
            if (a.timesInSlot > 0) != (b.timesInSlot > 0) { return a.timesInSlot > 0 }
            if abs(a.score - b.score) > 1e-9 { return a.score > b.score }
            if a.last.loggedAt != b.last.loggedAt { return a.last.loggedAt > b.last.loggedAt }
            return a.key < b.key
        }.prefix(max(0, limit)).map { $0 }
    }
}
