import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// `MealStore` on every backend: the same numbers, messages and versions from SQLite and PostgreSQL.
@Suite struct CoachMealStoreConformanceTests {
    let berlin = Fixtures.zone("Europe/Berlin")

    @Test(arguments: StoreBackend.allCases)
    func savesAMealAndReadsItBackWithItsLocalDateAndVersion(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()  // the user's row is version 1
            let meal = Meal(
                name: "Oats", foodId: "08120", grams: 80, kcal: 303.2, protein: 10.5, carbs: 54.1, fat: 5.3, fiber: 8.0,
                source: .database, loggedAt: Fixtures.utc("2026-03-01T07:15:00Z")
            )

            let saved = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)

            #expect(saved.meal == meal)
            #expect(saved.userId == user)
            #expect(saved.localDate == Fixtures.date("2026-03-01"))
            #expect(saved.version == 2)
            #expect(saved.createdAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(saved.updatedAt == saved.createdAt)
            #expect(saved.deletedAt == nil)
            #expect(try await stores.meals.meal(userId: user, id: meal.id) == saved)
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")) == [saved])
        }
    }

    /// `dayTotals` (the Challenge's read of the meal log: only the numbers) equals `DailyTotals(meals:)` of the range's
    /// meals grouped by day, on both backends: a missing macro counts as 0, a deleted meal, another user's meal and a
    /// day outside the range are left out. Worked: 1 March (Berlin) 303.2 + 120 kcal, protein 10.5 + 0 g.
    @Test(arguments: StoreBackend.allCases)
    func dayTotalsAddTheRangesLiveMealsByDay(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let oats = Meal(name: "Oats", kcal: 303.2, protein: 10.5, carbs: 54.1, fat: 5.3, fiber: 8.0, loggedAt: Fixtures.utc("2026-03-01T07:15:00Z"))
            let apple = Meal(name: "Apple", kcal: 120, loggedAt: Fixtures.utc("2026-03-01T15:00:00Z"))
            let gone = Meal(name: "Cake", kcal: 450, protein: 6, loggedAt: Fixtures.utc("2026-03-01T16:00:00Z"))
            let late = Meal(name: "Soup", kcal: 250.7, protein: 12.1, carbs: 20.3, fat: 9.9, loggedAt: Fixtures.utc("2026-03-02T23:30:00Z"))  // 3 March in Berlin
            let before = Meal(name: "Bread", kcal: 180, loggedAt: Fixtures.utc("2026-02-27T12:00:00Z"))
            for meal in [oats, apple, gone, late, before] { _ = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin) }
            _ = try await stores.meals.deleteMeal(userId: user, id: gone.id)
            _ = try await stores.meals.saveMeal(Meal(name: "Theirs", kcal: 999, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), userId: other, timeZone: berlin)

            let from = Fixtures.date("2026-02-28"), through = Fixtures.date("2026-03-03")
            let totals = try await stores.meals.dayTotals(userId: user, from: from, through: through)
            let meals = try await stores.meals.meals(userId: user, from: from, through: through, limit: 20_000)
            #expect(totals == Dictionary(grouping: meals, by: \.localDate).mapValues { DailyTotals(meals: $0.map(\.meal)) })
            #expect(Set(totals.keys) == [Fixtures.date("2026-03-01"), Fixtures.date("2026-03-03")])
            let first = try #require(totals[Fixtures.date("2026-03-01")])
            #expect(first.mealCount == 2)
            #expect(first.kcal == 120 + 303.2)
            #expect(first.protein == 10.5 && first.carbs == 54.1 && first.fat == 5.3 && first.fiber == 8.0)
            #expect(totals[Fixtures.date("2026-03-03")] == DailyTotals(kcal: 250.7, protein: 12.1, carbs: 20.3, fat: 9.9, mealCount: 1))
            #expect(try await stores.meals.dayTotals(userId: other, from: from, through: through)[Fixtures.date("2026-03-01")]?.kcal == 999)
        }
    }

    /// Both backends keep whole milliseconds, so what a save returns equals what every later read returns,
    /// and a retry of the same upload is recognised as identical.
    @Test(arguments: StoreBackend.allCases)
    func instantsAreKeptToTheMillisecond(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: Date(timeIntervalSince1970: 1_772_355_600.123_456)) { stores in
            let user = try await stores.makeUser()
            // 2026-03-01T11:30:00.250Z plus 400 µs, which neither backend keeps.
            let meal = Meal(name: "Soup", kcal: 250, loggedAt: Date(timeIntervalSince1970: 1_772_364_600.250_4))
            let saved = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)

            #expect(saved.meal.loggedAt == Date(timeIntervalSince1970: 1_772_364_600.25))
            #expect(saved.createdAt == Date(timeIntervalSince1970: 1_772_355_600.123))
            #expect(try await stores.meals.meal(userId: user, id: meal.id) == saved)
            #expect(try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin) == saved)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func updatesByIdUnderANewVersionAndKeepsCreatedAt(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            var meal = Meal(name: "Pasta", kcal: 600, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            let first = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)

            stores.clock.advance(seconds: 60)
            meal.kcal = 650
            meal.loggedAt = Fixtures.utc("2026-03-02T12:00:00Z")
            let second = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)

            #expect(first.version == 2)
            #expect(second.version == 3)
            #expect(second.meal.kcal == 650)
            #expect(second.localDate == Fixtures.date("2026-03-02"))
            #expect(second.createdAt == Fixtures.utc("2026-03-01T09:00:00Z"))
            #expect(second.updatedAt == Fixtures.utc("2026-03-01T09:01:00Z"))
            // Moved to the new day, not duplicated.
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")).isEmpty)
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-02")) == [second])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anIdenticalSaveKeepsTheVersion(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let meal = Meal(name: "Apple", kcal: 95, loggedAt: Fixtures.utc("2026-03-01T10:00:00Z"))
            let first = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)
            stores.clock.advance(seconds: 60)

            let retried = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)

            #expect(retried == first)
            // The next change takes the very next version: the retry used none.
            let next = try await stores.meals.saveMeal(
                Meal(name: "Pear", kcal: 100, loggedAt: Fixtures.utc("2026-03-01T11:00:00Z")), userId: user, timeZone: berlin)
            #expect(next.version == first.version + 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func versionsGrowAcrossMealsWeightsAndDeletes(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let lunch = try await stores.meals.saveMeal(
                Meal(name: "Lunch", kcal: 700, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), userId: user, timeZone: berlin)
            let weight = try await stores.weights.saveWeight(
                WeightEntry(kg: 82.4, loggedAt: Fixtures.utc("2026-03-01T06:00:00Z")), userId: user, timeZone: berlin)
            let dinner = try await stores.meals.saveMeal(
                Meal(name: "Dinner", kcal: 800, loggedAt: Fixtures.utc("2026-03-01T18:00:00Z")), userId: user, timeZone: berlin)
            let deleted = try await stores.meals.deleteMeal(userId: user, id: lunch.id)
            let restored = try await stores.meals.restoreMeal(userId: user, id: lunch.id)

            #expect([lunch.version, weight.version, dinner.version, deleted.version, restored.version] == [2, 3, 4, 5, 6])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func deletingLeavesATombstoneThatDayReadsSkip(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let day = Fixtures.date("2026-03-01")
            let kept = try await stores.meals.saveMeal(
                Meal(name: "Kept", kcal: 300, loggedAt: Fixtures.utc("2026-03-01T08:00:00Z")), userId: user, timeZone: berlin)
            let gone = try await stores.meals.saveMeal(
                Meal(name: "Gone", kcal: 500, loggedAt: Fixtures.utc("2026-03-01T09:00:00Z")), userId: user, timeZone: berlin)
            stores.clock.advance(seconds: 120)

            let tombstone = try await stores.meals.deleteMeal(userId: user, id: gone.id)

            #expect(tombstone.deletedAt == Fixtures.utc("2026-03-01T09:02:00Z"))
            #expect(tombstone.updatedAt == Fixtures.utc("2026-03-01T09:02:00Z"))
            #expect(tombstone.version == 4)
            #expect(try await stores.meals.meals(userId: user, on: day) == [kept])
            #expect(try await stores.meals.meal(userId: user, id: gone.id) == nil)
            #expect(try await stores.meals.dailyTotals(userId: user, on: day).kcal == 300)
            // Deleting again changes nothing; editing it is refused; an unknown id is not found.
            #expect(try await stores.meals.deleteMeal(userId: user, id: gone.id) == tombstone)
            await #expect(throws: StoreError.notFound("Meal not found")) {
                try await stores.meals.saveMeal(gone.meal, userId: user, timeZone: berlin)
            }
            await #expect(throws: StoreError.notFound("Meal not found")) {
                try await stores.meals.deleteMeal(userId: user, id: UUID())
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func undoBringsADeletedMealBackUnderANewVersion(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let day = Fixtures.date("2026-03-01")
            let saved = try await stores.meals.saveMeal(
                Meal(name: "Toast", kcal: 250, loggedAt: Fixtures.utc("2026-03-01T08:00:00Z")), userId: user, timeZone: berlin)
            let tombstone = try await stores.meals.deleteMeal(userId: user, id: saved.id)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: day...day).isEmpty)
            stores.clock.advance(seconds: 5)

            let restored = try await stores.meals.restoreMeal(userId: user, id: saved.id)

            #expect(restored.meal == saved.meal)
            #expect(restored.deletedAt == nil)
            #expect(restored.version == tombstone.version + 1)
            #expect(restored.createdAt == saved.createdAt)
            #expect(restored.updatedAt == Fixtures.utc("2026-03-01T09:00:05Z"))
            #expect(try await stores.meals.meals(userId: user, on: day) == [restored])
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: day...day) == [day])
            // Restoring a live meal returns it unchanged; an unknown one is not found.
            #expect(try await stores.meals.restoreMeal(userId: user, id: saved.id) == restored)
            await #expect(throws: StoreError.notFound("Meal not found")) {
                try await stores.meals.restoreMeal(userId: user, id: UUID())
            }
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aDaysMealsComeNewestFirstAndAddUp(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let breakfast = try await stores.meals.saveMeal(
                Meal(name: "Breakfast", kcal: 420, protein: 25, carbs: 50, fat: 12, fiber: 6, loggedAt: Fixtures.utc("2026-03-01T07:00:00Z")),
                userId: user, timeZone: berlin)
            let snack = try await stores.meals.saveMeal(
                Meal(name: "Snack", kcal: 180, loggedAt: Fixtures.utc("2026-03-01T15:00:00Z")), userId: user, timeZone: berlin)
            let lunch = try await stores.meals.saveMeal(
                Meal(name: "Lunch", kcal: 650.5, protein: 40, carbs: 70, fat: 20.5, loggedAt: Fixtures.utc("2026-03-01T11:30:00Z")),
                userId: user, timeZone: berlin)

            let day = Fixtures.date("2026-03-01")
            #expect(try await stores.meals.meals(userId: user, on: day).map(\.meal.name) == ["Snack", "Lunch", "Breakfast"])
            let totals = try await stores.meals.dailyTotals(userId: user, on: day)
            #expect(totals == DailyTotals(kcal: 1_250.5, protein: 65, carbs: 120, fat: 32.5, fiber: 6, mealCount: 3))
            #expect([breakfast, snack, lunch].allSatisfy { $0.localDate == day })
            #expect(try await stores.meals.dailyTotals(userId: user, on: day.adding(days: 1)) == .zero)
        }
    }

    /// 2026-03-01T11:30Z is 01:30 on 2 March in Kiritimati (UTC+14) and 00:30 on 1 March in Pago Pago (UTC−11).
    @Test(arguments: StoreBackend.allCases, [
        ("Pacific/Kiritimati", "2026-03-02", "2026-03-01"),
        ("Pacific/Pago_Pago", "2026-03-01", "2026-03-02"),
        ("UTC", "2026-03-01", "2026-03-02"),
    ])
    func aMealBelongsToTheDayOfTheUsersTimeZone(backend: StoreBackend, zone: (String, String, String)) async throws {
        let (identifier, day, otherDay) = zone
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let saved = try await stores.meals.saveMeal(
                Meal(name: "Late lunch", kcal: 500, loggedAt: Fixtures.utc("2026-03-01T11:30:00Z")), userId: user,
                timeZone: Fixtures.zone(identifier))

            #expect(saved.localDate == Fixtures.date(day))
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date(day)).map(\.id) == [saved.id])
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date(otherDay)).isEmpty)
        }
    }

    /// Berlin springs forward on 2026-03-29 at 01:00Z: that local day runs from 23:00Z on the 28th to 22:00Z
    /// on the 29th, 23 hours.
    @Test(arguments: StoreBackend.allCases)
    func theDayClocksSpringForwardHas23Hours(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let instants = [
                ("2026-03-28T22:59:59Z", "2026-03-28"),  // 23:59:59 CET
                ("2026-03-28T23:00:00Z", "2026-03-29"),  // 00:00 CET
                ("2026-03-29T01:30:00Z", "2026-03-29"),  // 03:30 CEST, just after the gap
                ("2026-03-29T21:59:59Z", "2026-03-29"),  // 23:59:59 CEST
                ("2026-03-29T22:00:00Z", "2026-03-30"),  // 00:00 CEST
            ]
            for (index, (instant, day)) in instants.enumerated() {
                let saved = try await stores.meals.saveMeal(
                    Meal(name: "Meal \(index)", kcal: 100, loggedAt: Fixtures.utc(instant)), userId: user, timeZone: berlin)
                #expect(saved.localDate == Fixtures.date(day), "\(instant)")
            }

            let names = try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-29")).map(\.meal.name)
            #expect(names == ["Meal 3", "Meal 2", "Meal 1"])
        }
    }

    @Test(arguments: StoreBackend.allCases, [
        (Meal(name: "Nothing", kcal: 0, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), "Calories must be between 1-9999"),
        (Meal(name: "NaN", kcal: .nan, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), "Calories must be between 1-9999"),
        (Meal(name: "Odd", kcal: 300, protein: -1, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), "Please enter a valid number"),
        (Meal(name: String(repeating: "a", count: 101), kcal: 300, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")),
         "Meal name must be 100 characters or fewer"),
        (Meal(name: "Rice", foodId: "20045", kcal: 130, source: .database, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")),
         "Please choose a food and an amount"),
        (Meal(name: "Epoch", kcal: 300, loggedAt: Date(timeIntervalSince1970: 0)), "Please check the date and time"),
    ])
    func refusesInvalidMealsWithTheFormsMessage(backend: StoreBackend, refused: (Meal, String)) async throws {
        let (meal, message) = refused
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            await #expect(throws: StoreError.invalid(message)) {
                try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)
            }
            #expect(try await stores.meals.meal(userId: user, id: meal.id) == nil)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func acceptsTheCalorieRangesEdgesAndAZeroCalorieCatalogFood(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let at = Fixtures.utc("2026-03-01T12:00:00Z")
            for meal in [
                Meal(name: "Gum", kcal: 1, loggedAt: at),
                Meal(name: "Everything", kcal: 9_999, loggedAt: at),
                Meal(name: "Water, tap", foodId: "14411", grams: 250, kcal: 0, source: .database, loggedAt: at),
            ] {
                _ = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin)
            }
            #expect(try await stores.meals.dailyTotals(userId: user, on: Fixtures.date("2026-03-01")).kcal == 10_000)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aMealForAnUnknownUserIsNotFound(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            await #expect(throws: StoreError.notFound("User not found")) {
                try await stores.meals.saveMeal(
                    Meal(name: "Orphan", kcal: 100, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), userId: UUID(), timeZone: berlin)
            }
        }
    }

    // MARK: The meal and its analytics event in one transaction

    @Test(arguments: StoreBackend.allCases)
    func savesTheMealAndRecordsItsEventInTheSameWrite(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()  // version 1
            let meal = Meal(name: "Apple", kcal: 95, loggedAt: Fixtures.utc("2026-03-01T08:30:00Z"))
            let event = AnalyticsEvent(
                name: .mealLogged, properties: ["source": "manual", "meal_type": "breakfast"],
                occurredAt: Fixtures.utc("2026-03-01T08:30:01Z"))

            let saved = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin, recording: event)

            #expect(saved.eventError == nil)
            #expect(saved.row.version == 2)
            #expect(try await stores.meals.meal(userId: user, id: meal.id) == saved.row)
            #expect(try await stores.analytics.events(userId: user) == [event])
            // The event drew the version after the meal's: the next write gets the one after that.
            let next = try await stores.meals.saveMeal(
                Meal(name: "Tea", kcal: 2, loggedAt: Fixtures.utc("2026-03-01T09:00:00Z")), userId: user, timeZone: berlin)
            #expect(next.version == saved.row.version + 2)

            // A retried upload: the event is the user's already, so nothing is added and nothing is reported.
            let retried = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin, recording: event)
            #expect(retried.eventError == nil)
            #expect(retried.row == saved.row)
            #expect(try await stores.analytics.events(userId: user) == [event])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func anEventThatCannotBeStoredNeverCostsTheMeal(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()  // version 1
            let other = try await stores.makeUser()
            let event = AnalyticsEvent(name: .mealLogged, properties: ["source": "manual"], occurredAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            try await stores.analytics.recordEvent(event, userId: other)
            let meal = Meal(name: "Soup", kcal: 210, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))

            let saved = try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin, recording: event)

            #expect(saved.eventError as? StoreError == StoreError.conflict("This id is already in use"))
            #expect(try await stores.meals.meal(userId: user, id: meal.id) == saved.row)
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")) == [saved.row])
            #expect(try await stores.analytics.events(userId: user) == [])
            #expect(try await stores.analytics.events(userId: other) == [event])
            // Nothing of the refused event is left behind, not even a version: the next write follows the meal's.
            let next = try await stores.meals.saveMeal(
                Meal(name: "Bread", kcal: 80, loggedAt: Fixtures.utc("2026-03-01T12:05:00Z")), userId: user, timeZone: berlin)
            #expect(next.version == saved.row.version + 1)
        }
    }

    /// A new meal takes one statement on PostgreSQL; an id that is another user's must still be refused there,
    /// without the event and without drawing a version.
    @Test(arguments: StoreBackend.allCases)
    func anotherUsersMealIdIsRefusedWithItsEvent(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let theirs = try await stores.meals.saveMeal(
                Meal(name: "Theirs", kcal: 300, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z")), userId: other, timeZone: berlin)
            let before = try await stores.meals.saveMeal(
                Meal(name: "Mine", kcal: 100, loggedAt: Fixtures.utc("2026-03-01T11:00:00Z")), userId: user, timeZone: berlin)
            let event = AnalyticsEvent(name: .mealLogged, properties: ["source": "manual"], occurredAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            let copy = Meal(id: theirs.id, name: "Copy", kcal: 400, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))

            await #expect(throws: StoreError.conflict("This id is already in use")) {
                try await stores.meals.saveMeal(copy, userId: user, timeZone: berlin, recording: event)
            }
            #expect(try await stores.analytics.events(userId: user) == [])
            #expect(try await stores.meals.meal(userId: other, id: theirs.id) == theirs)
            let after = try await stores.meals.saveMeal(
                Meal(name: "Next", kcal: 50, loggedAt: Fixtures.utc("2026-03-01T13:00:00Z")), userId: user, timeZone: berlin)
            #expect(after.version == before.version + 1)
        }
    }

    /// The same new meal sent many times at once (a client retrying over a flaky network): one meal, one event,
    /// every answer the same row.
    @Test(arguments: StoreBackend.allCases)
    func concurrentRetriesOfANewMealSaveItOnce(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let meal = Meal(name: "Porridge", kcal: 320, loggedAt: Fixtures.utc("2026-03-01T07:30:00Z"))
            let event = AnalyticsEvent(name: .mealLogged, properties: ["source": "manual"], occurredAt: Fixtures.utc("2026-03-01T07:30:01Z"))
            let results = try await withThrowingTaskGroup(of: SavedWithEvent<StoredMeal>.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin, recording: event) }
                }
                var all: [SavedWithEvent<StoredMeal>] = []
                for try await result in group { all.append(result) }
                return all
            }
            #expect(Set(results.map(\.row)).count == 1)
            #expect(results.allSatisfy { $0.eventError == nil })
            #expect(try await stores.meals.meals(userId: user, on: Fixtures.date("2026-03-01")) == [results[0].row])
            #expect(try await stores.analytics.events(userId: user) == [event])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aRefusedMealRecordsNoEvent(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let user = try await stores.makeUser()
            let meal = Meal(name: "Nothing", kcal: 0, loggedAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            let event = AnalyticsEvent(name: .mealLogged, occurredAt: Fixtures.utc("2026-03-01T12:00:00Z"))
            await #expect(throws: StoreError.invalid("Calories must be between 1-9999")) {
                try await stores.meals.saveMeal(meal, userId: user, timeZone: berlin, recording: event)
            }
            #expect(try await stores.analytics.events(userId: user) == [])
        }
    }
}
