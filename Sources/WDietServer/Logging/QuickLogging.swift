import Crypto
import Foundation
import Logging
import WDietCore
import WDietFoodData
import WDietStore

/// Issue 17's ways to log faster, below the pages: favourites, saved meals (recipes), recents, several meals at once,
/// and copies. Favourites and saved meals are generic sync rows (collections `favourite` and `saved_meal`, checked by
/// `SyncRules`), written through the sync store's push so that the API, a synced device and an import share one set of
/// rules, versions and tombstones. Meals are saved through `MealStore.saveMeals` (one transaction) and each records
/// `meal_logged` like every other path. Throws `InvalidInput` and store errors, never HTTP.
struct QuickLogging: Sendable {
    let services: AppServices

    var logging: MealLogging { MealLogging(services: services) }

    static var favouriteNotFound: StoreError { .notFound(Strings.current("logging.favouriteNotFound")) }
    static var savedMealNotFound: StoreError { .notFound(Strings.current("logging.savedMealNotFound")) }

    // MARK: - Favourites

    /// The user's favourites, oldest first, each with its version.
    func favourites(userId: UUID) async throws -> [(Favourite, Int64)] {
        try await services.sync.rows(userId: userId, collection: Favourite.collection, includingDeleted: false).compactMap { item in
            guard let data = item.data, let favourite = try? SyncRules.decodeRow(Favourite.self, data) else { return nil }
            return (favourite, item.version)
        }
    }

    /// Stars a food or a manual meal. Idempotent: an id the user already has, or a catalog food already starred,
    /// answers that favourite (`created` false).
    func addFavourite(_ body: FavouriteBody, userId: UUID) async throws -> (favourite: Favourite, version: Int64, created: Bool) {
        let id = try APIInput.uuid(body.id) ?? TimeOrderedUUID.make()
        let existing = try await services.sync.row(userId: userId, collection: Favourite.collection, id: id)
        if let existing, existing.deletedAt == nil, let data = existing.data {
            return (try SyncRules.decodeRow(Favourite.self, data), existing.version, false)
        }
        let now = services.now()
        var favourite: Favourite
        if body.isFromCatalog {
            guard let foodId = body.foodId.value?.trimmingCharacters(in: .whitespaces), !foodId.isEmpty else {
                throw InvalidInput(["foodId": LoggingInput.Message.foodId])
            }
            if let starred = try await favourites(userId: userId).first(where: { $0.0.foodId == foodId }) {
                return (starred.0, starred.1, false)
            }
            let food = try await logging.catalogFood(id: foodId)
            if body.amountIsPresent {
                let meal = try body.foodMeal(id: id, food: food, now: now)
                favourite = Favourite(id: id, name: meal.name, foodId: food.id, grams: meal.grams, createdAt: now)
            } else {
                var errors: [String: String] = [:]
                for (member, field) in body.nutrientMembers where field.isPresent { errors[member] = LoggingInput.Message.valuesWithFood }
                guard errors.isEmpty else { throw InvalidInput(errors) }
                let name = body.name.value?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                favourite = Favourite(id: id, name: name.isEmpty ? MealInput.mealName(forFood: food.longDescription) : name, foodId: food.id, createdAt: now)
            }
        } else {
            favourite = Favourite(id: id, meal: try body.manualMeal(id: id, now: now), createdAt: now)
        }
        do { try favourite.validate() } catch { throw InvalidInput(error.errors) }
        let version = try await write(favourite, collection: Favourite.collection, id: id, base: existing, userId: userId)
        return (favourite, version, true)
    }

    /// Unstars: the row becomes a tombstone that sync hands out. Unknown or already removed: not found.
    func removeFavourite(id: UUID, userId: UUID) async throws {
        try await remove(collection: Favourite.collection, id: id, userId: userId, notFound: Self.favouriteNotFound)
    }

    // MARK: - Saved meals

    func savedMeals(userId: UUID) async throws -> [(SavedMeal, Int64)] {
        try await services.sync.rows(userId: userId, collection: SavedMeal.collection, includingDeleted: false).compactMap { item in
            guard let data = item.data, let saved = try? SyncRules.decodeRow(SavedMeal.self, data) else { return nil }
            return (saved, item.version)
        }
    }

    func savedMeal(id: UUID, userId: UUID) async throws -> (SavedMeal, Int64) {
        guard let item = try await services.sync.row(userId: userId, collection: SavedMeal.collection, id: id), item.deletedAt == nil,
              let data = item.data, let saved = try? SyncRules.decodeRow(SavedMeal.self, data)
        else { throw Self.savedMealNotFound }
        return (saved, item.version)
    }

    /// Creates a saved meal (`existingId` nil; a client `id` the user already has answers that one) or replaces one.
    func saveSavedMeal(_ body: SavedMealBody, existingId: UUID?, userId: UUID) async throws -> (saved: SavedMeal, version: Int64, created: Bool) {
        let now = services.now()
        let id: UUID
        var createdAt = now
        let current: SyncItem?
        if let existingId {
            id = existingId
            let (old, _) = try await savedMeal(id: existingId, userId: userId)
            createdAt = old.createdAt
            current = try await services.sync.row(userId: userId, collection: SavedMeal.collection, id: id)
            if let base = body.baseVersion, let current, base != current.version { throw Self.changedElsewhere }
        } else {
            id = try Self.uuid(body.id, member: "id") ?? TimeOrderedUUID.make()
            current = try await services.sync.row(userId: userId, collection: SavedMeal.collection, id: id)
            if let current, current.deletedAt == nil, let data = current.data {
                return (try SyncRules.decodeRow(SavedMeal.self, data), current.version, false)
            }
        }
        var errors: [String: String] = [:]
        let servings: Double
        switch body.servings?.input ?? .missing {
        case .missing: servings = 1
        case .invalid: servings = 0
        case .value(let v): servings = v
        }
        let slot = Self.slot(body.slot, member: "slot", errors: &errors)
        var items: [SavedMeal.Item] = []
        for (index, itemBody) in (body.items ?? []).enumerated() {
            do {
                items.append(try await item(from: itemBody, now: now))
            } catch let invalid as InvalidInput {
                for (member, message) in invalid.fields { errors["items.\(index).\(member)"] = message }
            }
        }
        let saved = SavedMeal(id: id, name: (body.name ?? "").trimmingCharacters(in: .whitespacesAndNewlines), servings: servings,
                              items: items, slot: slot, createdAt: createdAt, updatedAt: now)
        do { try saved.validate() } catch { errors.merge(error.errors) { first, _ in first } }
        // Items refused one by one are not also "no items".
        if errors.keys.contains(where: { $0.hasPrefix("items.") }) { errors["items"] = nil }
        guard errors.isEmpty else { throw InvalidInput(errors) }
        let version = try await write(saved, collection: SavedMeal.collection, id: id, base: current, userId: userId)
        return (saved, version, existingId == nil)
    }

    func removeSavedMeal(id: UUID, userId: UUID) async throws {
        try await remove(collection: SavedMeal.collection, id: id, userId: userId, notFound: Self.savedMealNotFound)
    }

    /// Logs a saved meal: each item a meal, all in one transaction, scaled to the servings eaten.
    func logSavedMeal(id: UUID, body: LogSavedMealBody, userId: UUID, profile: Profile, logger: Logger) async throws -> [StoredMeal] {
        let (saved, _) = try await savedMeal(id: id, userId: userId)
        var errors: [String: String] = [:]
        let chosen = Self.slot(body.slot, member: "slot", errors: &errors)
        var servings = 1.0
        switch body.servings?.input ?? .missing {
        case .missing: break
        case .invalid: errors["servings"] = LoggingInput.Message.servings
        case .value(let v):
            if LoggingInput.servingsRange.contains(v) { servings = v } else { errors["servings"] = LoggingInput.Message.servings }
        }
        let loggedAt = try when(loggedAt: body.loggedAt, date: body.date, profile: profile, errors: &errors)
        let requestId = try Self.uuid(body.requestId, member: "requestId")
        guard errors.isEmpty else { throw InvalidInput(errors) }
        let slot = chosen ?? saved.slot ?? MealSlot(loggedAt, in: profile.timeZone)
        let ids = saved.items.indices.map { index in
            requestId.map { Self.derivedId($0, "saved-meal:\(id.uuidString.lowercased()):\(index)") } ?? TimeOrderedUUID.make()
        }
        let meals = saved.meals(servingsEaten: servings, loggedAt: loggedAt, slot: slot, ids: ids)
        return try await saveNew(meals, source: "savedMeal", userId: userId, profile: profile, logger: logger)
    }

    // MARK: - Several at once, and copies

    /// Logs several meals in one transaction (all or none). Items whose client `id` the user already has answer those
    /// meals unchanged.
    func logBatch(_ body: MealBatchBody, userId: UUID, profile: Profile, logger: Logger) async throws -> [StoredMeal] {
        var errors: [String: String] = [:]
        let items = body.items ?? []
        if items.isEmpty || items.count > LoggingInput.maxItems { errors["items"] = LoggingInput.Message.items }
        let slot = Self.slot(body.slot, member: "slot", errors: &errors)
        let defaultTime: Date? = (body.loggedAt != nil || body.date != nil)
            ? try when(loggedAt: body.loggedAt, date: body.date, profile: profile, errors: &errors) : nil
        let now = services.now()
        var meals: [Meal] = []
        for (index, var item) in items.enumerated() {
            if item.loggedAt.isAbsent, let defaultTime { item.loggedAt = .value(defaultTime) }
            if item.slot.isAbsent, let slot { item.slot = .value(slot.rawValue) }
            do {
                let id = try APIInput.uuid(item.id) ?? TimeOrderedUUID.make()
                var meal: Meal
                if item.isFromCatalog {
                    guard let foodId = item.foodId.value?.trimmingCharacters(in: .whitespaces), !foodId.isEmpty else {
                        throw InvalidInput(["foodId": StoreValidation.Message.databaseMealIncomplete])
                    }
                    meal = try item.foodMeal(id: id, food: try await logging.catalogFood(id: foodId), now: now)
                } else {
                    meal = try item.manualMeal(id: id, now: now)
                }
                meals.append(meal)
            } catch let invalid as InvalidInput {
                for (member, message) in invalid.fields { errors["items.\(index).\(member)"] = message }
            } catch let error as APIError {
                errors["items.\(index).id"] = error.message
            }
        }
        guard errors.isEmpty else { throw InvalidInput(errors) }
        if Set(meals.map(\.id)).count != meals.count { throw InvalidInput(["items": Strings.current("logging.idTaken")]) }
        for index in meals.indices where meals[index].slot == nil {
            meals[index].slot = MealSlot(meals[index].loggedAt, in: profile.timeZone)
        }
        return try await saveNew(meals, source: nil, userId: userId, profile: profile, logger: logger)
    }

    /// Copies meals of one day to another: each a new meal with its own id, at the same local time of day on the
    /// target day. "Same as yesterday" for a slot is `fromDate` yesterday with that `slot`.
    func copy(_ body: MealCopyBody, userId: UUID, profile: Profile, logger: Logger) async throws -> [StoredMeal] {
        var errors: [String: String] = [:]
        let today = LocalDate(services.now(), in: profile.timeZone)
        let slot = Self.slot(body.slot, member: "slot", errors: &errors)
        let toSlot = Self.slot(body.toSlot, member: "toSlot", errors: &errors)
        let target = body.toDate ?? today
        if !Self.dayRange(today: today).contains(target) { errors["toDate"] = Strings.current("logging.day") }
        guard let from = body.fromDate else { throw InvalidInput(errors.merging(["fromDate": Strings.current("logging.day")]) { a, _ in a }) }
        if !Self.dayRange(today: today).contains(from) { errors["fromDate"] = Strings.current("logging.day") }
        var wanted: Set<UUID>?
        if let ids = body.mealIds {
            wanted = Set(try ids.map { text in
                guard let id = UUID(uuidString: text) else { throw InvalidInput(["mealIds": Strings.current("logging.copyNothing")]) }
                return id
            })
        }
        let requestId = try Self.uuid(body.requestId, member: "requestId")
        guard errors.isEmpty else { throw InvalidInput(errors) }
        let sources = try await services.meals.meals(userId: userId, on: from)
            .filter { stored in
                (slot == nil || stored.meal.slot(in: profile.timeZone) == slot) && (wanted == nil || wanted!.contains(stored.id))
            }
            .sorted { $0.meal.loggedAt < $1.meal.loggedAt }
        guard !sources.isEmpty else { throw InvalidInput(["fromDate": Strings.current("logging.copyNothing")]) }
        let copies = sources.map { stored in
            stored.meal.copied(
                to: target, in: profile.timeZone,
                id: requestId.map { Self.derivedId($0, "copy:\(stored.id.uuidString.lowercased())") } ?? TimeOrderedUUID.make(),
                slot: toSlot)
        }
        return try await saveNew(copies, source: "copy", userId: userId, profile: profile, logger: logger)
    }

    // MARK: - Recents

    /// The recent foods at `now` (see `RecentFoods`), from the meals of the last 60 days.
    func recents(userId: UUID, profile: Profile, limit: Int) async throws -> [RecentFoods.Entry] {
        let now = services.now()
        let today = LocalDate(now, in: profile.timeZone)
        let meals = try await services.meals.meals(
            userId: userId, from: today.adding(days: -RecentFoods.windowDays), through: today.adding(days: 1), limit: RecentFoods.maxMeals)
        return RecentFoods.rank(meals.map(\.meal), now: now, timeZone: profile.timeZone, limit: limit)
    }

    // MARK: - Helpers

    /// Saves new meals in one transaction and records `meal_logged` for each (an id the user already has is answered
    /// as it is, and records nothing again: the event's id comes from the meal's).
    func saveNew(_ meals: [Meal], source: String?, userId: UUID, profile: Profile, logger: Logger) async throws -> [StoredMeal] {
        var existing: [UUID: StoredMeal] = [:]
        for meal in meals {
            if let stored = try await services.meals.meal(userId: userId, id: meal.id) { existing[meal.id] = stored }
        }
        let fresh = meals.filter { existing[$0.id] == nil }
        let saved = fresh.isEmpty ? [] : try await services.meals.saveMeals(fresh, userId: userId, timeZone: profile.timeZone)
        for stored in saved {
            services.events.recordOnce(
                .mealLogged,
                services.events.mealLoggedProperties(source: source ?? stored.meal.source.eventSource, meal: stored.meal, in: profile.timeZone),
                userId: userId, id: EventRecorder.stableId(userId: userId, key: "meal-logged:\(stored.id.uuidString.lowercased())"),
                logger: logger)
        }
        let byId = Dictionary(uniqueKeysWithValues: saved.map { ($0.id, $0) }).merging(existing) { new, _ in new }
        return meals.compactMap { byId[$0.id] }
    }

    /// Writes a typed row through the sync push (one change, its own idempotency key): a create, an update from the
    /// current version, or the return of a tombstone.
    private func write(_ value: some Encodable, collection: String, id: UUID, base: SyncItem?, userId: UUID) async throws -> Int64 {
        let change = SyncChange(
            idempotencyKey: UUID().uuidString, entity: .row, op: .upsert, id: id, collection: collection,
            baseVersion: base?.version, data: try SyncRules.rowData(value))
        let result: [SyncChangeResult]
        do {
            result = try await services.sync.push([change], userId: userId)
        } catch let rejection as SyncRejection {
            throw Self.storeError(rejection)
        }
        guard let first = result.first, first.status == .applied, let version = first.version else {
            // `lost`: changed by another device between the read and this write.
            throw result.first?.status == .lost ? Self.changedElsewhere : StoreError.conflict(Strings.current("logging.idTaken"))
        }
        return version
    }

    private func remove(collection: String, id: UUID, userId: UUID, notFound: StoreError) async throws {
        guard let current = try await services.sync.row(userId: userId, collection: collection, id: id), current.deletedAt == nil else {
            throw notFound
        }
        let change = SyncChange.delete(.row, id: id, collection: collection, baseVersion: current.version, key: UUID().uuidString)
        do {
            _ = try await services.sync.push([change], userId: userId)
        } catch let rejection as SyncRejection {
            throw Self.storeError(rejection)
        }
    }

    /// A saved meal (or another row) changed on another device since the client read it.
    static var changedElsewhere: StoreError { .conflict(Strings.current("logging.changedElsewhere")) }

    private static func storeError(_ rejection: SyncRejection) -> StoreError {
        switch rejection {
        case .idInUse: .conflict(Strings.current("logging.idTaken"))
        case .invalidChange(_, _, let message): .invalid(message)
        default: .invalid(rejection.message)
        }
    }

    /// A saved meal's item from a `MealBody`: a catalog food's values computed for its amount, or a manual item's.
    private func item(from body: MealBody, now: Date) async throws -> SavedMeal.Item {
        if body.isFromCatalog {
            guard let foodId = body.foodId.value?.trimmingCharacters(in: .whitespaces), !foodId.isEmpty else {
                throw InvalidInput(["foodId": LoggingInput.Message.foodId])
            }
            let meal = try body.foodMeal(id: UUID(), food: try await logging.catalogFood(id: foodId), now: now)
            return SavedMeal.Item(
                name: meal.name, foodId: meal.foodId, grams: meal.grams, portion: body.portion.value,
                quantity: body.portion.isPresent ? (body.quantity.numeric.number ?? 1) : nil, kcal: meal.kcal,
                protein: meal.protein, carbs: meal.carbs, fat: meal.fat, fiber: meal.fiber)
        }
        let meal = try body.manualMeal(id: UUID(), now: now)
        return SavedMeal.Item(name: meal.name, kcal: meal.kcal, protein: meal.protein, carbs: meal.carbs, fat: meal.fat, fiber: meal.fiber)
    }

    /// When a meal of a saved meal is logged: `loggedAt`, else `date` at the current local time, else now.
    private func when(loggedAt: Date?, date: LocalDate?, profile: Profile, errors: inout [String: String]) throws -> Date {
        let now = services.now()
        if let loggedAt {
            if !StoreValidation.instantRange.contains(loggedAt) { errors["loggedAt"] = StoreValidation.Message.instant }
            return loggedAt
        }
        guard let date else { return now }
        let today = LocalDate(now, in: profile.timeZone)
        if !Self.dayRange(today: today).contains(date) { errors["date"] = Strings.current("logging.day"); return now }
        return Meal.sameTimeOfDay(as: now, on: date, in: profile.timeZone)
    }

    /// The days a copy or a log may name: a year back through tomorrow.
    static func dayRange(today: LocalDate) -> ClosedRange<LocalDate> { today.adding(days: -366)...today.adding(days: 1) }

    static func slot(_ text: String?, member: String, errors: inout [String: String]) -> MealSlot? {
        guard let text else { return nil }
        guard let slot = MealSlot(rawValue: text.trimmingCharacters(in: .whitespaces).lowercased()) else {
            errors[member] = LoggingInput.Message.slot
            return nil
        }
        return slot
    }

    static func uuid(_ text: String?, member: String) throws -> UUID? {
        try APIInput.uuid(text.map { .value($0) } ?? .absent, name: member)
    }

    /// A name-based id (SHA-256, version 5 layout) from a request's id and what is made: the same request makes the
    /// same ids, so a retry finds what the first made.
    static func derivedId(_ request: UUID, _ key: String) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("\(request.uuidString.lowercased()):\(key)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x50
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
