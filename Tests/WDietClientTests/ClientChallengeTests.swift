import Foundation
import Testing
import WDietClient
import WDietCore
import WDietStore
import WDietTestSupport

/// The Challenge in the client library (issue 20): a challenge started, days and weeks logged offline with the
/// server's rules; and the convergence the issue asks for — two devices that were offline each log the same day and
/// the same week's check-in, and after syncing there is one row of each, the same everywhere.
@Suite struct ClientChallengeTests {
    let today = Fixtures.date("2026-12-02")          // a Wednesday, the third day
    let now = Fixtures.utc("2026-12-02T09:00:00Z")
    let start = Fixtures.date("2026-11-30")

    @Test func aChallengeWorksOfflineWithTheServersRules() throws {
        let store = try ClientStore(path: nil)
        let challenge = try store.startChallenge(goalWeightKg: 80, startWeightKg: 90, weightUnit: .kg, today: Fixtures.date("2026-11-26"), now: now)
        #expect(challenge.startDate == start)                        // the next Monday
        #expect(try store.currentChallenge() == challenge)
        try store.logChallengeNutrition(ChallengeNutritionLog(challengeId: challenge.id, date: start, kcal: 2_000, protein: 150, createdAt: now), today: today)
        try store.logChallengeNutrition(ChallengeNutritionLog(challengeId: challenge.id, date: start.adding(days: 1), status: .skipped, createdAt: now), today: today)
        try store.logChallengeWorkout(ChallengeWorkoutLog(challengeId: challenge.id, date: start, type: .rest, createdAt: now), today: today)
        try store.logChallengeHabits(ChallengeHabitsLog(challengeId: challenge.id, date: start, water: true, steps: true, sleep: true, createdAt: now), today: today)
        try store.saveChallengePhoto(ChallengePhoto(challengeId: challenge.id, week: 1, mediaId: UUID(), takenOn: start.adding(days: 1), createdAt: now), today: today)
        // A meal logged in w-diet on Wednesday counts as that day's nutrition.
        try store.saveProfile(Fixtures.profile())
        try store.saveMeal(ClientFixtures.meal("Porridge", kcal: 320, at: Fixtures.utc("2026-12-02T08:00:00Z")))

        let data = try #require(try store.challengeData(challengeId: challenge.id))
        let week = data.score(week: 1, today: today)
        // 2 nutrition days (Mon typed, Wed meals) 14.29 + 1 workout (Rest) 2.86 + 3 habits 2.14 + late photo 10 = 29.29 → 29.
        #expect((week.nutritionDays, week.workoutDays, week.habitTicks, week.hasPhoto, week.score) == (2, 1, 3, true, 29))
        #expect(data.photos[1]?.isLate(in: challenge) == true)
        #expect(data.streak(.nutrition, today: today).current == 1)

        // Checked before they are queued: a day outside the challenge, a day ahead, a week not begun, a bad value.
        #expect(throws: ClientError.self) {
            try store.logChallengeNutrition(ChallengeNutritionLog(challengeId: challenge.id, date: start.adding(days: -1), status: .skipped, createdAt: now), today: today)
        }
        #expect(throws: ClientError.self) {
            try store.logChallengeNutrition(ChallengeNutritionLog(challengeId: challenge.id, date: today.adding(days: 2), status: .skipped, createdAt: now), today: today)
        }
        #expect(throws: ClientError.self) {
            try store.saveChallengeWeighIn(ChallengeWeighIn(challengeId: challenge.id, week: 3, kg: 89, loggedOn: today, createdAt: now), today: today)
        }
        #expect(throws: ClientError.self) {
            try store.logChallengeWorkout(ChallengeWorkoutLog(challengeId: challenge.id, date: today, type: .push, minutes: 900, createdAt: now), today: today)
        }
        // Settings: 003's defaults until saved.
        var settings = try store.challengeSettings(challengeId: challenge.id, now: now)
        #expect(settings.reminder(.weighIn).time.description == "10:15")
        settings.smartRules = false
        try store.saveChallengeSettings(settings)
        #expect(try store.challengeSettings(challengeId: challenge.id, now: now).smartRules == false)

        try store.deleteChallenge(id: challenge.id)
        #expect(try store.currentChallenge() == nil)
        #expect(try store.challengeRows(ChallengeNutritionLog.self).isEmpty)
    }

    @Test(arguments: StoreBackend.allCases)
    func twoOfflineDevicesLoggingTheSameDayAndWeekConvergeToOneRowEach(_ backend: StoreBackend) async throws {
        try await LiveServer.with(backend) { server in
            let account = try await server.guest()
            let log = PushLog()
            let phone = try Device("phone", server: server, account: account, log: log)
            let tablet = try Device("tablet", server: server, account: account, log: log)
            defer { phone.remove(); tablet.remove() }

            let challenge = try phone.store.startChallenge(goalWeightKg: 80, startWeightKg: 90, weightUnit: .kg, today: start, now: now)
            #expect(await phone.sync().isUpToDate)
            #expect(await tablet.sync().isUpToDate)
            #expect(try tablet.store.currentChallenge() == challenge)

            // Both go offline and each logs Wednesday's nutrition and week 1's check-in (photo and weigh-in), with
            // different values; the tablet also logs Wednesday's workout, the phone Wednesday's habits.
            phone.network.online = false
            tablet.network.online = false
            try phone.store.logChallengeNutrition(ChallengeNutritionLog(challengeId: challenge.id, date: today, kcal: 1_950, protein: 140, createdAt: now), today: today)
            try tablet.store.logChallengeNutrition(ChallengeNutritionLog(challengeId: challenge.id, date: today, kcal: 2_020, protein: 155,
                                                                         createdAt: now.addingTimeInterval(5)), today: today)
            // Each device's photo is uploaded first, as a client does (a push naming media not the user's is refused).
            let photoMedia = try await server.uploadedMedia(userId: account.userId, count: 2)
            try phone.store.saveChallengePhoto(ChallengePhoto(challengeId: challenge.id, week: 1, mediaId: photoMedia[0], takenOn: start, createdAt: now), today: today)
            let tabletPhoto = ChallengePhoto(challengeId: challenge.id, week: 1, mediaId: photoMedia[1], takenOn: today, createdAt: now)
            try tablet.store.saveChallengePhoto(tabletPhoto, today: today)
            try phone.store.saveChallengeWeighIn(ChallengeWeighIn(challengeId: challenge.id, week: 1, kg: 89.4, loggedOn: start, createdAt: now), today: today)
            let tabletWeighIn = ChallengeWeighIn(challengeId: challenge.id, week: 1, kg: 89.2, loggedOn: start, waistCm: 97, createdAt: now)
            try tablet.store.saveChallengeWeighIn(tabletWeighIn, today: today)
            let workout = ChallengeWorkoutLog(challengeId: challenge.id, date: today, type: .legs, minutes: 50, createdAt: now)
            try tablet.store.logChallengeWorkout(workout, today: today)
            let habits = ChallengeHabitsLog(challengeId: challenge.id, date: today, water: true, sleep: true, createdAt: now)
            try phone.store.logChallengeHabits(habits, today: today)
            #expect(await phone.sync().isUpToDate == false)          // offline: nothing goes out

            // Back online: the phone pushes first, then the tablet (whose creates of the same ids are updates), then
            // both pull.
            phone.network.online = true
            tablet.network.online = true
            #expect(await phone.sync().isUpToDate)
            #expect(await tablet.sync().isUpToDate)
            #expect(await phone.sync().isUpToDate)

            let store = ChallengeStore(sync: server.services.sync)
            let nutrition = try await store.rows(ChallengeNutritionLog.self, userId: account.userId)
            let photos = try await store.rows(ChallengePhoto.self, userId: account.userId)
            let weighIns = try await store.rows(ChallengeWeighIn.self, userId: account.userId)
            #expect(nutrition.count == 1)
            #expect(photos.count == 1)
            #expect(weighIns.count == 1)
            // Including tombstones there is still one row each: nothing was duplicated and then deleted.
            #expect(try await store.rows(ChallengeNutritionLog.self, userId: account.userId, includingDeleted: true).count == 1)
            #expect(nutrition.first?.value.kcal == 2_020)            // the later push won, whole
            #expect(photos.first?.value == tabletPhoto)
            #expect(weighIns.first?.value == tabletWeighIn)
            // Different kinds of the same day are different rows: both kept.
            #expect(try await store.rows(ChallengeWorkoutLog.self, userId: account.userId).map(\.value) == [workout])
            #expect(try await store.rows(ChallengeHabitsLog.self, userId: account.userId).map(\.value) == [habits])

            // Both devices hold exactly what the server holds.
            for device in [phone, tablet] {
                let data = try #require(try device.store.challengeData(challengeId: challenge.id))
                #expect(data.nutrition.values.map(\.kcal) == [2_020], "\(device.name)")
                #expect(data.photos == [1: tabletPhoto], "\(device.name)")
                #expect(data.weighIns == [1: tabletWeighIn], "\(device.name)")
                #expect(data.workouts == [today: workout], "\(device.name)")
                #expect(data.habits == [today: habits], "\(device.name)")
                #expect(try device.store.challengeRows(ChallengeNutritionLog.self).count == 1, "\(device.name)")
                #expect(try device.store.status().pending == 0, "\(device.name)")
            }
        }
    }
}
