import Foundation
import Testing
import WDietCore
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

/// The Challenge's store (issue 20) on every backend: its rows are synced rows of seven collections; a day's and a
/// week's rows have derived ids, so a second save of the same day edits the one row; stale edits lose; rows that are
/// not the Challenge's shape are refused by the push itself; a challenge is deleted with its rows; export, import and
/// the account's deletion carry them.
@Suite struct ChallengeStoreConformanceTests {
    let written = Fixtures.utc("2026-12-02T09:00:00Z")
    let start = Fixtures.date("2026-11-30")

    func day(_ index: Int) -> LocalDate { start.adding(days: index) }

    @Test(arguments: StoreBackend.allCases)
    func everyKindOfRowIsSavedAndReadBackForItsChallengeOnly(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let store = ChallengeStore(sync: stores.sync)
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let challenge = Challenge(startDate: start, startWeightKg: 92, goalWeightKg: 82, weightUnit: .lb, createdAt: written)
            let older = Challenge(startDate: start.adding(days: -140), goalWeightKg: 85, createdAt: written.addingTimeInterval(60))
            let savedChallenge = try await store.save(challenge, baseVersion: nil, userId: user)
            #expect(savedChallenge.version > 0)
            try await store.save(older, baseVersion: nil, userId: user)
            // The challenge that started last is the current one, even when the older was written later.
            #expect(try await store.current(userId: user)?.value == challenge)
            #expect(try await store.current(userId: other) == nil)

            let nutrition = ChallengeNutritionLog(challengeId: challenge.id, date: day(0), kcal: 2_100, protein: 160, carbs: 210, fat: 65,
                                                  notes: "Meal prep day", createdAt: written)
            let skipped = ChallengeNutritionLog(challengeId: challenge.id, date: day(1), status: .skipped, createdAt: written)
            let workout = ChallengeWorkoutLog(challengeId: challenge.id, date: day(0), type: .plyoAbs, minutes: 30, notes: "Box jumps", createdAt: written)
            let habits = ChallengeHabitsLog(challengeId: challenge.id, date: day(0), water: true, steps: false, sleep: true, createdAt: written)
            let media = UUID()
            let photo = ChallengePhoto(challengeId: challenge.id, week: 1, mediaId: media, takenOn: day(1), createdAt: written)
            let weighIn = ChallengeWeighIn(challengeId: challenge.id, week: 1, kg: 91.6, loggedOn: day(0), waistCm: 98.5, hipsCm: 104,
                                           notes: "After coffee", createdAt: written)
            var settings = ChallengeSettings(challengeId: challenge.id, updatedAt: written)
            settings.reminders = [ChallengeReminder(kind: .nutrition, time: JournalTime(hour: 21, minute: 15)),
                                  ChallengeReminder(kind: .habits, enabled: false)]
            settings.smartRules = false
            settings.appLock = true
            settings.workoutTemplates = [ChallengeWorkoutTemplate(type: .push, minutes: 50, notes: "Bench, dips")]
            try await store.save(nutrition, baseVersion: nil, userId: user)
            try await store.save(skipped, baseVersion: nil, userId: user)
            try await store.save(workout, baseVersion: nil, userId: user)
            try await store.save(habits, baseVersion: nil, userId: user)
            try await store.save(photo, baseVersion: nil, userId: user)
            try await store.save(weighIn, baseVersion: nil, userId: user)
            try await store.save(settings, baseVersion: nil, userId: user)
            // Another challenge's log and another user's rows stay apart.
            try await store.save(ChallengeNutritionLog(challengeId: older.id, date: older.startDate, status: .skipped, createdAt: written),
                                 baseVersion: nil, userId: user)
            let theirs = Challenge(startDate: start, goalWeightKg: 70, createdAt: written)
            try await store.save(theirs, baseVersion: nil, userId: other)
            try await store.save(ChallengeNutritionLog(challengeId: theirs.id, date: day(0), kcal: 1_500, createdAt: written),
                                 baseVersion: nil, userId: other)

            let data = try await store.data(userId: user, challenge: challenge,
                                            mealTotals: [day(2): DailyTotals(kcal: 1_800, protein: 120, carbs: 190, fat: 60, mealCount: 2)])
            #expect(data.nutrition == [day(0): nutrition, day(1): skipped])
            #expect(data.workouts == [day(0): workout])
            #expect(data.habits == [day(0): habits])
            #expect(data.photos == [1: photo])
            #expect(data.weighIns == [1: weighIn])
            #expect(data.settings == settings)
            #expect(data.settings?.reminder(.nutrition).time == JournalTime(hour: 21, minute: 15))
            #expect(data.settings?.template(.push).minutes == 50)
            #expect(data.settings?.template(.legs).minutes == 45)   // the built-in one
            // Worked: Mon typed, Tue skipped, Wed from the meal log → 2 done days of 7 = 14.29; workout 1 day = 2.86;
            // habits 2 of 21 = 1.43; photo 10; weigh-in 5 → 33.57 → 34.
            let week = data.score(week: 1, today: day(6))
            #expect((week.nutritionDays, week.workoutDays, week.habitTicks, week.score) == (2, 1, 2, 34))
            #expect(week.colour == .gray)
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: user).count == 3)
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: other).map(\.value.kcal) == [1_500])
            #expect(try await store.row(ChallengeWeighIn.self, userId: user, id: weighIn.id)?.value == weighIn)
            #expect(try await store.row(ChallengeWeighIn.self, userId: other, id: weighIn.id) == nil)
        }
    }

    /// Home's typed read (`SyncStore.rowTexts`, decoded straight into the row's type) gives what the generic read gives:
    /// the same rows in the same order, versions, tombstones, values, and a row pushed by another client with a member
    /// the server does not know and numbers written its own way (`91.60`, `1.5e2`; the push keeps its canonical text).
    @Test(arguments: StoreBackend.allCases)
    func theTypedReadGivesWhatTheGenericReadGives(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let store = ChallengeStore(sync: stores.sync)
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let challenge = Challenge(startDate: start, goalWeightKg: 80, createdAt: written)
            try await store.save(challenge, baseVersion: nil, userId: user)
            let monday = ChallengeNutritionLog(challengeId: challenge.id, date: day(0), kcal: 2_100, protein: 160.5, notes: "Ä \"quoted\" ✓",
                                               createdAt: written)
            let tuesday = try await store.save(ChallengeNutritionLog(challengeId: challenge.id, date: day(1), kcal: 1_900, createdAt: written),
                                               baseVersion: nil, userId: user)
            try await store.save(monday, baseVersion: nil, userId: user)
            #expect(try await store.delete(ChallengeNutritionLog.self, id: tuesday.id, baseVersion: tuesday.version, userId: user))
            // Another client's push: an extra member and 91.60 / 1.5e2 written as it likes.
            let weighIn = ChallengeWeighIn(challengeId: challenge.id, week: 1, kg: 91.6, loggedOn: day(0), waistCm: 150, createdAt: written)
            guard case .object(var members) = try SyncRules.rowData(weighIn) else { Issue.record("not an object"); return }
            members["fromANewerClient"] = .string("kept")
            let text = try SyncJSON.object(members).canonicalText()
                .replacingOccurrences(of: "91.6", with: "91.60").replacingOccurrences(of: "\"waistCm\":150", with: "\"waistCm\":1.5e2")
            let pushed = try await stores.sync.push([SyncChange(idempotencyKey: "typed-read-1", entity: .row, op: .upsert, id: weighIn.id,
                                                                collection: ChallengeWeighIn.collection, baseVersion: nil,
                                                                data: try SyncJSON.parse(text))], userId: user)
            #expect(pushed.map(\.status) == [.applied])
            try await store.save(ChallengeNutritionLog(challengeId: challenge.id, date: day(0), kcal: 1_500, createdAt: written),
                                 baseVersion: nil, userId: other)

            for collection in [ChallengeNutritionLog.collection, ChallengeWeighIn.collection] {
                for includingDeleted in [false, true] {
                    let generic = try await stores.sync.rows(userId: user, collection: collection, includingDeleted: includingDeleted)
                    let typed = try await stores.sync.rowTexts(userId: user, collection: collection, includingDeleted: includingDeleted)
                    #expect(typed.map(\.id) == generic.map(\.id))
                    #expect(typed.map(\.version) == generic.map(\.version))
                    #expect(typed.map(\.deletedAt) == generic.map(\.deletedAt))
                    #expect(try typed.map { try SyncJSON.parse($0.data) } == generic.map(\.data))
                }
            }
            let live = try await store.rows(ChallengeNutritionLog.self, userId: user)
            #expect(live.map(\.value) == [monday])
            #expect(live.map(\.value.protein) == [160.5])
            #expect(live.map(\.value.notes) == ["Ä \"quoted\" ✓"])
            let all = try await store.rows(ChallengeNutritionLog.self, userId: user, includingDeleted: true)
            #expect(Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0.isDeleted) }) == [tuesday.id: true, monday.id: false])
            let weighIns = try await store.rows(ChallengeWeighIn.self, userId: user)
            #expect(weighIns.map(\.value) == [weighIn])
            #expect(weighIns.map(\.value.kg) == [91.6])
            #expect(weighIns.map(\.value.waistCm) == [150])
            #expect(weighIns.map(\.version) == [pushed[0].version])
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: other).map(\.value.kcal) == [1_500])
        }
    }

    /// A read that reuses an earlier one (`read(reusing:)`, what Home does after a write from another path) gives
    /// exactly what a read from scratch gives after every kind of change since: an edit (a new version of a row the
    /// earlier read holds), a delete, a new row, a row pushed by another device, a new weigh-in and photo, settings
    /// saved; and rows whose version did not move are taken from the earlier read, not decoded again.
    @Test(arguments: StoreBackend.allCases)
    func aReadReusingAnEarlierOneGivesWhatAFreshReadGives(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let store = ChallengeStore(sync: stores.sync)
            let user = try await stores.makeUser()
            let challenge = Challenge(startDate: start, goalWeightKg: 80, createdAt: written)
            try await store.save(challenge, baseVersion: nil, userId: user)
            for index in 0..<14 {
                try await store.save(ChallengeNutritionLog(challengeId: challenge.id, date: day(index), kcal: Double(1_800 + index), createdAt: written),
                                     baseVersion: nil, userId: user)
                try await store.save(ChallengeWorkoutLog(challengeId: challenge.id, date: day(index), type: .push, minutes: 30 + index, createdAt: written),
                                     baseVersion: nil, userId: user)
                try await store.save(ChallengeHabitsLog(challengeId: challenge.id, date: day(index), water: true, steps: index.isMultiple(of: 2),
                                                        sleep: false, createdAt: written), baseVersion: nil, userId: user)
            }
            try await store.save(ChallengeWeighIn(challengeId: challenge.id, week: 1, kg: 91.6, loggedOn: day(0), createdAt: written),
                                 baseVersion: nil, userId: user)
            let earlier = try await store.read(userId: user, challenge: challenge)
            #expect(earlier.data.nutrition.count == 14 && earlier.data.workouts.count == 14 && earlier.data.habits.count == 14)

            // The changes since: Monday's nutrition edited (2,500 kcal), Tuesday's workout deleted, day 15's habits
            // new, day 3's workout pushed by a phone as Legs 55 min, week 2's weigh-in and photo, settings.
            let monday = try #require(earlier.stored(earlier.data.nutrition[day(0)]))
            try await store.save(ChallengeNutritionLog(challengeId: challenge.id, date: day(0), kcal: 2_500, createdAt: written),
                                 baseVersion: monday.version, userId: user)
            let tuesday = try #require(earlier.stored(earlier.data.workouts[day(1)]))
            #expect(try await store.delete(ChallengeWorkoutLog.self, id: tuesday.id, baseVersion: tuesday.version, userId: user))
            try await store.save(ChallengeHabitsLog(challengeId: challenge.id, date: day(14), water: false, steps: true, sleep: true, createdAt: written),
                                 baseVersion: nil, userId: user)
            let phone = ChallengeWorkoutLog(challengeId: challenge.id, date: day(3), type: .legs, minutes: 55, createdAt: written)
            let pushed = try await stores.sync.push([SyncChange(idempotencyKey: "reuse-1", entity: .row, op: .upsert, id: phone.id,
                                                                collection: ChallengeWorkoutLog.collection, baseVersion: earlier.versions[phone.id],
                                                                data: try SyncRules.rowData(phone))], userId: user)
            #expect(pushed.map(\.status) == [.applied])
            try await store.save(ChallengeWeighIn(challengeId: challenge.id, week: 2, kg: 90.8, loggedOn: day(7), createdAt: written),
                                 baseVersion: nil, userId: user)
            try await store.save(ChallengePhoto(challengeId: challenge.id, week: 2, mediaId: UUID(), takenOn: day(7), createdAt: written),
                                 baseVersion: nil, userId: user)
            var settings = ChallengeSettings(challengeId: challenge.id, updatedAt: written)
            settings.smartRules = false
            try await store.save(settings, baseVersion: nil, userId: user)

            let reused = try await store.read(userId: user, challenge: challenge, reusing: earlier)
            let fresh = try await store.read(userId: user, challenge: challenge)
            #expect(reused.data == fresh.data)
            #expect(reused.versions == fresh.versions)
            #expect(reused.data.nutrition[day(0)]?.kcal == 2_500)
            #expect(reused.data.workouts[day(1)] == nil)
            #expect(reused.data.workouts[day(3)]?.type == .legs && reused.data.workouts[day(3)]?.minutes == 55)
            #expect(reused.data.habits.count == 15)
            #expect(reused.data.weighIns[2]?.kg == 90.8 && reused.data.photos[2] != nil)
            #expect(reused.data.settings?.smartRules == false)

            // Unchanged versions come from the earlier read: one marked there (Wednesday's kcal as 1) shows through,
            // while a changed row (Monday's) never does.
            var marked = fresh
            marked.data.nutrition[day(2)]?.kcal = 1
            marked.data.nutrition[day(0)]?.kcal = 1
            let fromMarked = try await store.read(userId: user, challenge: challenge, reusing: marked)
            #expect(fromMarked.data.nutrition[day(2)]?.kcal == 1)
            #expect(fromMarked.data.nutrition[day(0)]?.kcal == 1)   // Monday's version is the same as in `fresh` too
            try await store.save(ChallengeNutritionLog(challengeId: challenge.id, date: day(0), kcal: 2_600, createdAt: written),
                                 baseVersion: fresh.versions[monday.id], userId: user)
            let afterEdit = try await store.read(userId: user, challenge: challenge, reusing: marked)
            #expect(afterEdit.data.nutrition[day(0)]?.kcal == 2_600)
            #expect(afterEdit.data.nutrition[day(2)]?.kcal == 1)
            // An earlier read of another challenge is not used.
            let other = Challenge(startDate: start, goalWeightKg: 70, createdAt: written)
            var foreign = marked
            foreign.data.challenge = other
            let notReused = try await store.read(userId: user, challenge: challenge, reusing: foreign)
            #expect(notReused.data.nutrition[day(2)]?.kcal == 1_802)
        }
    }

    /// The stamp Home keeps its rows by (`SyncStore.rowsStamp`): the user's rows of the asked collections counted,
    /// tombstones included, with their highest version; another user's rows and other collections left out. It moves
    /// with every create (one more), edit and delete (a tombstone: the same count, a new highest version).
    @Test(arguments: StoreBackend.allCases)
    func theRowsStampCountsTheUsersRowsAndMovesWithEveryWrite(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let store = ChallengeStore(sync: stores.sync)
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let nutritionOnly = [ChallengeNutritionLog.collection]
            #expect(try await store.rowsStamp(userId: user) == SyncRowsStamp(count: 0, highestVersion: 0))
            let challenge = try await store.save(Challenge(startDate: start, goalWeightKg: 80, createdAt: written), baseVersion: nil, userId: user)
            #expect(try await store.rowsStamp(userId: user) == SyncRowsStamp(count: 1, highestVersion: challenge.version))
            let monday = try await store.save(ChallengeNutritionLog(challengeId: challenge.id, date: day(0), kcal: 1_900, createdAt: written),
                                              baseVersion: nil, userId: user)
            let habits = try await store.save(ChallengeHabitsLog(challengeId: challenge.id, date: day(0), water: true, createdAt: written),
                                              baseVersion: nil, userId: user)
            #expect(try await store.rowsStamp(userId: user) == SyncRowsStamp(count: 3, highestVersion: habits.version))
            #expect(try await stores.sync.rowsStamp(userId: user, collections: nutritionOnly) == SyncRowsStamp(count: 1, highestVersion: monday.version))
            #expect(try await stores.sync.rowsStamp(userId: user, collections: []) == SyncRowsStamp(count: 0, highestVersion: 0))

            // Another user's challenge leaves this user's stamp as it is.
            let theirs = try await store.save(Challenge(startDate: start, goalWeightKg: 70, createdAt: written), baseVersion: nil, userId: other)
            #expect(try await store.rowsStamp(userId: user) == SyncRowsStamp(count: 3, highestVersion: habits.version))
            #expect(try await store.rowsStamp(userId: other) == SyncRowsStamp(count: 1, highestVersion: theirs.version))

            // An edit: the same count, its version the highest. A delete: the tombstone still counts, its version the highest.
            var edited = monday.value
            edited.kcal = 2_000
            let edit = try await store.save(edited, baseVersion: monday.version, userId: user)
            #expect(edit.version > habits.version)
            #expect(try await store.rowsStamp(userId: user) == SyncRowsStamp(count: 3, highestVersion: edit.version))
            let tombstone = try #require(try await store.deleteRow(ChallengeHabitsLog.self, id: habits.id, baseVersion: habits.version, userId: user))
            #expect(tombstone > edit.version)
            #expect(try await store.rowsStamp(userId: user) == SyncRowsStamp(count: 3, highestVersion: tombstone))
            #expect(try await stores.sync.rowsStamp(userId: user, collections: nutritionOnly) == SyncRowsStamp(count: 1, highestVersion: edit.version))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aDayIsOneRowAndStaleEditsLose(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let store = ChallengeStore(sync: stores.sync)
            let user = try await stores.makeUser()
            let challenge = Challenge(startDate: start, goalWeightKg: 80, createdAt: written)
            try await store.save(challenge, baseVersion: nil, userId: user)
            let first = try await store.save(
                ChallengeNutritionLog(challengeId: challenge.id, date: day(2), kcal: 1_900, createdAt: written), baseVersion: nil, userId: user)
            // The same day again without a base (another device's create): the same row, edited.
            var again = ChallengeNutritionLog(challengeId: challenge.id, date: day(2), kcal: 2_050, protein: 140, createdAt: written)
            again.updatedAt = written.addingTimeInterval(30)
            let second = try await store.save(again, baseVersion: nil, userId: user)
            #expect(second.id == first.id)
            #expect(second.version > first.version)
            let rows = try await store.rows(ChallengeNutritionLog.self, userId: user)
            #expect(rows.map(\.value) == [again])
            // An edit from the first version loses to the second; the server's row comes back.
            var stale = again
            stale.kcal = 1_700
            do {
                try await store.save(stale, baseVersion: first.version, userId: user)
                Issue.record("a stale edit was applied")
            } catch let conflict as ChallengeConflict {
                #expect(conflict.server?.version == second.version)
                #expect(conflict.message == "This was changed on another device. Here is the latest version; make your change again.")
            }
            // Delete with the current base; a second delete finds nothing.
            #expect(try await store.delete(ChallengeNutritionLog.self, id: first.id, baseVersion: second.version, userId: user))
            #expect(try await store.delete(ChallengeNutritionLog.self, id: first.id, baseVersion: nil, userId: user) == false)
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: user).isEmpty)
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: user, includingDeleted: true).map(\.isDeleted) == [true])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPushOfARowThatBreaksTheChallengeRulesIsRefused(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let challengeId = UUID()
            // A day's log under an id that is not the day's derived one: a second row for the day. Refused.
            var log = ChallengeNutritionLog(challengeId: challengeId, date: day(0), kcal: 2_000, createdAt: written)
            log.id = UUID()
            let wrongId = SyncChange(idempotencyKey: "k1", entity: .row, op: .upsert, id: log.id, collection: ChallengeNutritionLog.collection,
                                     data: try SyncRules.rowData(log))
            await #expect(throws: SyncRejection.invalidChange(index: 0, key: "k1", message: "id: This log's id does not belong to its day or week.")) {
                try await stores.sync.push([wrongId], userId: user)
            }
            let weighIn = ChallengeWeighIn(challengeId: challengeId, week: 1, kg: 12, loggedOn: day(0), createdAt: written)
            let tooLight = SyncChange(idempotencyKey: "k2", entity: .row, op: .upsert, id: weighIn.id, collection: ChallengeWeighIn.collection,
                                      data: try SyncRules.rowData(weighIn))
            await #expect(throws: SyncRejection.invalidChange(index: 0, key: "k2", message: "kg: Weight must be between 20-500 kg")) {
                try await stores.sync.push([tooLight], userId: user)
            }
            let notAChallenge = SyncChange(idempotencyKey: "k3", entity: .row, op: .upsert, id: challengeId, collection: Challenge.collection,
                                           data: .object(["id": .string(challengeId.uuidString), "note": .string("free-form")]))
            await #expect(throws: SyncRejection.self) { try await stores.sync.push([notAChallenge], userId: user) }
            #expect(try await ChallengeStore(sync: stores.sync).rows(ChallengeWeighIn.self, userId: user).isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aChallengeIsDeletedWithItsRowsExportedImportedAndErasedWithTheAccount(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let store = ChallengeStore(sync: stores.sync)
            let user = try await stores.makeUser()
            let challenge = Challenge(startDate: start, startWeightKg: 90, goalWeightKg: 80, createdAt: written)
            let kept = Challenge(startDate: start.adding(days: -126), goalWeightKg: 88, createdAt: written)
            try await store.save(challenge, baseVersion: nil, userId: user)
            try await store.save(kept, baseVersion: nil, userId: user)
            for index in 0..<3 {
                try await store.save(ChallengeNutritionLog(challengeId: challenge.id, date: day(index), kcal: 2_000, createdAt: written),
                                     baseVersion: nil, userId: user)
                try await store.save(ChallengeWorkoutLog(challengeId: challenge.id, date: day(index), type: .legs, createdAt: written),
                                     baseVersion: nil, userId: user)
            }
            let weighIn = ChallengeWeighIn(challengeId: challenge.id, week: 1, kg: 89.9, loggedOn: day(1), chestCm: 101, createdAt: written)
            try await store.save(weighIn, baseVersion: nil, userId: user)
            let keptLog = ChallengeHabitsLog(challengeId: kept.id, date: kept.startDate, water: true, createdAt: written)
            try await store.save(keptLog, baseVersion: nil, userId: user)

            // Export and import into another account: every row, as it was.
            let export = try await stores.userData.exportUserData(userId: user)
            let exported = export.rows.filter { $0.collection.hasPrefix("challenge") }
            #expect(exported.count == 10)
            #expect(try exported.filter { $0.collection == "challenge_weighin" }.map { try SyncRules.decodeRow(ChallengeWeighIn.self, $0.data) } == [weighIn])
            let fresh = try await stores.makeUser()
            _ = try await stores.userData.importUserData(export, into: fresh)
            let imported = try await store.data(userId: fresh, challenge: challenge)
            #expect(imported.nutrition.count == 3)
            #expect(imported.workouts.count == 3)
            #expect(imported.weighIns == [1: weighIn])
            // 50 × 3/7 + 20 × 3/7 + weigh-in 5 = 21.43 + 8.57 + 5 = 35.
            let importedScore = imported.score(week: 1, today: day(6)).score
            #expect(importedScore == 35)

            // Deleting the challenge deletes its 7 rows and itself, not the other challenge's.
            #expect(try await store.deleteChallenge(id: challenge.id, userId: user) == 8)
            #expect(try await store.current(userId: user)?.value == kept)
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: user).isEmpty)
            #expect(try await store.rows(ChallengeHabitsLog.self, userId: user).map(\.value) == [keptLog])
            // Pulled as tombstones by a device.
            let pulled = try await stores.sync.pull(userId: user, after: 0, limit: 1_000).items.filter { $0.collection?.hasPrefix("challenge") == true }
            #expect(pulled.filter { $0.deletedAt != nil }.count == 8)

            #expect(try await stores.userData.deleteAccount(userId: user, loginThrottleKeys: []))
            #expect(try await store.rows(Challenge.self, userId: user, includingDeleted: true).isEmpty)
            #expect(try await store.rows(Challenge.self, userId: fresh).count == 2)
        }
    }
}

/// The app lock's PIN store (issue 20 item 4) on every backend: server-only, one per user, wrong attempts counted
/// atomically, gone with the account.
@Suite struct ChallengeAppLockConformanceTests {
    static func store(_ stores: CoachStores) -> any ChallengeAppLockStore {
        switch stores.database {
        case .sqlite(let database): SQLiteChallengeAppLockStore(database: database)
        case .postgres(let client): PostgresChallengeAppLockStore(client: client)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPinHashIsKeptCountedAndErased(backend: StoreBackend) async throws {
        try await backend.withCoachStores { stores in
            let store = Self.store(stores)
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let now = Fixtures.utc("2026-12-01T09:00:00Z")
            #expect(try await store.appLock(userId: user) == nil)
            #expect(try await store.recordFailure(userId: user) == 0)          // no PIN: nothing to count
            try await store.setPin(userId: user, pinHash: "$2b$04$first", now: now)
            // Ten wrong PINs at once count ten.
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 { group.addTask { try await store.recordFailure(userId: user) } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counts.sorted() == Array(1...10))
            #expect(try await store.appLock(userId: user) == ChallengeAppLockState(pinHash: "$2b$04$first", failedAttempts: 10, updatedAt: now))
            try await store.resetFailures(userId: user)
            #expect(try await store.appLock(userId: user)?.failedAttempts == 0)
            _ = try await store.recordFailure(userId: user)
            // A new PIN replaces the hash and clears the count.
            try await store.setPin(userId: user, pinHash: "$2b$04$second", now: now.addingTimeInterval(60))
            #expect(try await store.appLock(userId: user) == ChallengeAppLockState(pinHash: "$2b$04$second", failedAttempts: 0, updatedAt: now.addingTimeInterval(60)))
            #expect(try await store.appLock(userId: other) == nil)
            await #expect(throws: StoreError.self) { try await store.setPin(userId: UUID(), pinHash: "x", now: now) }
            try await store.setPin(userId: other, pinHash: "$2b$04$other", now: now)
            #expect(try await store.removePin(userId: other))
            #expect(try await store.removePin(userId: other) == false)
            #expect(try await stores.userData.deleteAccount(userId: user, loginThrottleKeys: []))
            #expect(try await store.appLock(userId: user) == nil)
        }
    }
}
