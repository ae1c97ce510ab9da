import Foundation
import GRDB
import WDietCore
import WDietStore

/// Issue 17 on the device, offline first: favourites and saved meals (generic rows of the collections `favourite` and
/// `saved_meal`, synced like every row), several meals logged in one local transaction, a saved meal logged, copies of
/// a day or a slot, and the recents, ranked by `RecentFoods` as the server ranks them.
extension ClientStore {
    // MARK: Favourites

    /// Stars a food or a manual meal (the server's rules: `Favourite.validate`).
    public func saveFavourite(_ favourite: Favourite) throws {
        do { try favourite.validate() } catch { throw Self.invalid(error) }
        try saveRow(collection: Favourite.collection, id: favourite.id, data: try SyncRules.rowData(favourite))
    }

    public func deleteFavourite(id: UUID) throws {
        try deleteRow(collection: Favourite.collection, id: id)
    }

    /// The live favourites, oldest first.
    public func favourites() throws -> [Favourite] {
        try liveRows(Favourite.self, collection: Favourite.collection).sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    // MARK: Saved meals

    public func saveSavedMeal(_ saved: SavedMeal) throws {
        do { try saved.validate() } catch { throw Self.invalid(error) }
        try saveRow(collection: SavedMeal.collection, id: saved.id, data: try SyncRules.rowData(saved))
    }

    public func deleteSavedMeal(id: UUID) throws {
        try deleteRow(collection: SavedMeal.collection, id: id)
    }

    public func savedMeals() throws -> [SavedMeal] {
        try liveRows(SavedMeal.self, collection: SavedMeal.collection).sorted { ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString) }
    }

    public func savedMeal(id: UUID) throws -> SavedMeal? {
        try row(collection: SavedMeal.collection, id: id).map { try SyncRules.decodeRow(SavedMeal.self, $0) }
    }

    /// Logs a saved meal: each item a meal (scaled to the servings eaten), all in one local transaction.
    @discardableResult
    public func logSavedMeal(id: UUID, servings: Double = 1, loggedAt: Date, slot: MealSlot? = nil) throws -> [Meal] {
        guard let saved = try savedMeal(id: id) else { throw ClientError.notFound("saved meal") }
        guard LoggingInput.servingsRange.contains(servings) else { throw ClientError.invalid(LoggingInput.Message.servings) }
        let zone = try profile().map(\.timeZone) ?? TimeZone(identifier: "UTC")!
        let meals = saved.meals(servingsEaten: servings, loggedAt: loggedAt, slot: slot ?? saved.slot ?? MealSlot(loggedAt, in: zone))
        try logMeals(meals)
        return meals
    }

    // MARK: Several at once, copies

    /// Logs several meals in one local transaction: all are queued, or none (the first invalid one throws).
    public func logMeals(_ meals: [Meal]) throws {
        for meal in meals {
            do { try StoreValidation.validate(meal) } catch { throw ClientError(error) }
        }
        let payloads = try meals.map { try Self.text($0) }
        try database.queue.write { db in
            for (meal, payload) in zip(meals, payloads) {
                let date = try self.localDate(db, of: meal.loggedAt)
                try self.edit(db, key: RecordKey(entity: .meal, uuid: meal.id), op: .upsert, payload: payload, localDate: date)
            }
        }
    }

    /// Copies the meals of `from` (all, or one slot's) to `to`: each a new meal with its own id at the same local time
    /// of day, in one local transaction. "Same as yesterday" for breakfast: `copyMeals(from: yesterday, slot: .breakfast,
    /// to: today)`.
    @discardableResult
    public func copyMeals(from: LocalDate, slot: MealSlot? = nil, to: LocalDate) throws -> [Meal] {
        guard let zone = try profile()?.timeZone else { throw ClientError.profileRequired }
        let copies = try meals(on: from).filter { slot == nil || $0.slot(in: zone) == slot }.map { source in
            source.copied(to: to, in: zone, id: TimeOrderedUUID.make())
        }
        guard !copies.isEmpty else { throw ClientError.invalid(Strings.current("logging.copyNothing")) }
        try logMeals(copies)
        return copies
    }

    // MARK: Recents

    /// The recent foods at `now` from the device's meals of the last 60 days (`RecentFoods`, as the server ranks them).
    public func recents(now: Date, limit: Int = 20) throws -> [RecentFoods.Entry] {
        guard let zone = try profile()?.timeZone else { return [] }
        let today = LocalDate(now, in: zone)
        let meals = try database.queue.read { db in
            try String.fetchAll(db, sql: """
                SELECT payload FROM records WHERE entity = 'meal' AND deleted = 0 AND localDate BETWEEN ? AND ?
                """, arguments: [today.adding(days: -RecentFoods.windowDays).iso, today.adding(days: 1).iso])
                .map { try Self.decode(Meal.self, $0) }
        }
        return RecentFoods.rank(meals, now: now, timeZone: zone, limit: limit)
    }

    // MARK: Helpers

    func liveRows<T: Decodable>(_ type: T.Type, collection: String) throws -> [T] {
        try database.queue.read { db in
            try String.fetchAll(db, sql: "SELECT payload FROM records WHERE entity = 'row' AND collection = ? AND deleted = 0",
                                arguments: [collection])
        }.compactMap { try? SyncRules.decodeRow(T.self, SyncJSON.parse($0)) }
    }

    static func invalid(_ error: LoggingInput.Invalid) -> ClientError {
        .invalid(error.errors.sorted { $0.key < $1.key }.first.map { "\($0.key): \($0.value)" } ?? "")
    }
}
