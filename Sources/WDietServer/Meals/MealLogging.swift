import Foundation
import Logging
import WDietCore
import WDietFoodData
import WDietStore

/// Logging, changing, deleting and restoring a meal: the one path that the JSON API (`MealsAPI`), the web forms
/// (`MealPages`) and the sync push (`SyncAPI`) take. It applies the rules of `MealBody` (messages keyed by the API's
/// member names), saves through the store, and records `meal_logged`. It throws `InvalidInput` and store errors,
/// never HTTP: each caller says no in its own way.
struct MealLogging: Sendable {
    let services: AppServices

    static var notFound: StoreError { StoreError.notFound(Strings.current("meals.notFound")) }

    /// A new meal from `body`, with the `meal_logged` event in the meal's own transaction. A client-made `id` the
    /// user already has returns that meal unchanged, so a retried upload logs nothing twice.
    func log(_ body: MealBody, id requestedId: UUID?, userId: UUID, profile: Profile, logger: Logger) async throws -> StoredMeal {
        if let requestedId, let existing = try await services.meals.meal(userId: userId, id: requestedId) {
            return existing
        }
        let id = requestedId ?? TimeOrderedUUID.make()
        var meal: Meal
        if body.isFromCatalog {
            guard let foodId = body.foodId.value?.trimmingCharacters(in: .whitespaces), !foodId.isEmpty else {
                throw InvalidInput(["foodId": StoreValidation.Message.databaseMealIncomplete])
            }
            meal = try body.foodMeal(id: id, food: try await catalogFood(id: foodId), now: services.now())
        } else {
            meal = try body.manualMeal(id: id, now: services.now())
        }
        // Issue 17: a meal logged without a slot takes the one of its local time, and keeps it.
        if meal.slot == nil { meal.slot = MealSlot(meal.loggedAt, in: profile.timeZone) }
        let event = services.events.mealLogged(source: meal.source.eventSource, meal: meal, in: profile.timeZone)
        let saved = try await services.meals.saveMeal(meal, userId: userId, timeZone: profile.timeZone, recording: event)
        EventRecorder.logNotRecorded(event, error: saved.eventError, logger: logger)
        return saved.row
    }

    /// The user's live meal with this id; anyone else's, a deleted one or an unknown id is "not found".
    func meal(userId: UUID, id: UUID) async throws -> StoredMeal {
        guard let meal = try await services.meals.meal(userId: userId, id: id), meal.deletedAt == nil else { throw Self.notFound }
        return meal
    }

    /// `existing` with the body's changes (members left out stay as they are); saved only when something changed.
    func change(_ existing: StoredMeal, with body: MealBody, userId: UUID, profile: Profile) async throws -> StoredMeal {
        var food: Food?
        if existing.meal.source == .database, body.amountIsPresent, let foodId = existing.meal.foodId {
            food = try? await services.foods.food(id: foodId)
            // A portion needs the food's measures: without the catalog only grams can change.
            if food == nil, body.portion.isPresent, try await !services.foods.isLoaded() {
                throw StoreError.catalogMissing(Strings.current("meals.searchUnavailableEnterGrams"))
            }
        }
        let meal = try body.patched(existing.meal, food: food)
        guard meal != existing.meal else { return existing }
        return try await services.meals.saveMeal(meal, userId: userId, timeZone: profile.timeZone)
    }

    /// The meal becomes a tombstone that sync still hands out.
    func delete(userId: UUID, id: UUID) async throws {
        do {
            _ = try await services.meals.deleteMeal(userId: userId, id: id)
        } catch StoreError.notFound {
            throw Self.notFound
        }
    }

    /// "Undo" after a delete: the meal is back, with a new version.
    func restore(userId: UUID, id: UUID) async throws -> StoredMeal {
        do {
            return try await services.meals.restoreMeal(userId: userId, id: id)
        } catch StoreError.notFound {
            throw Self.notFound
        }
    }

    /// The catalog's food; "catalog missing" when there is no catalog, a field error when it has no such food.
    func catalogFood(id: String) async throws -> Food {
        if let food = try await services.foods.food(id: id) { return food }
        guard try await services.foods.isLoaded() else {
            throw StoreError.catalogMissing(Strings.current("meals.searchUnavailableEnterManually"))
        }
        throw InvalidInput(["foodId": MealBody.Message.foodNotFound])
    }

    /// `meal_logged` for each meal a sync push created, as the API and the web form record it for theirs. The
    /// push is one transaction of the store's, so the events follow it, off the request; each event's id comes from
    /// the meal's, so a replayed push (or a create retried under a new key) records it once.
    func recordCreated(by changes: [SyncChange], results: [SyncChangeResult], userId: UUID, timeZone: TimeZone, logger: Logger) {
        for (change, result) in zip(changes, results) where change.entity == .meal && change.op == .upsert
            && change.baseVersion == nil && result.status == .applied {
            guard let meal = change.meal else { continue }
            services.events.recordOnce(
                .mealLogged, services.events.mealLoggedProperties(source: meal.source.eventSource, meal: meal, in: timeZone),
                userId: userId, id: EventRecorder.stableId(userId: userId, key: "meal-logged:\(meal.id.uuidString.lowercased())"),
                logger: logger)
        }
    }
}

extension MealSource {
    /// `source` of `meal_logged`: how the meal was entered (004 Story 5.2).
    var eventSource: String { rawValue }
}
