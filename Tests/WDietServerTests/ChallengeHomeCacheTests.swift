import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietStore
import WDietTestSupport
@testable import WDietServer

/// Home (`GET /api/v1/challenge` and the `/challenge` page) answers from a per-user snapshot kept by data generation
/// (`ChallengeService.snapshot`): a write from the API, from a web form and from a sync push each shows on the next
/// Home, and so does a meal logged in w-diet; a new day shows without any write (today is never kept). On both
/// backends (PostgreSQL: keyed by the user's `last_version` as the session lookup reads it). The clock: Tuesday
/// 1 December 2026, 09:00 UTC (10:00 in the profile's Berlin); the challenge began on Monday 30 November.
@Suite("Challenge Home cache")
struct ChallengeHomeCacheTests {
    static let clock = Fixtures.utc("2026-12-01T09:00:00Z")

    static func object(_ value: Any?) -> [String: Any] { (value as? [String: Any]) ?? [:] }

    static func home(_ client: some TestClientProtocol, _ session: WebDashboardSession) async throws -> [String: Any] {
        let response = try await session.get(client, "/api/v1/challenge")
        #expect(response.status == .ok, "\(response.text)")
        return try response.object()
    }

    static func checklist(_ home: [String: Any]) -> [String: Any] { object(home["todayChecklist"]) }
    static func state(_ home: [String: Any], _ kind: String) -> String? { object(checklist(home)[kind])["state"] as? String }
    static func score(_ home: [String: Any]) -> [String: Any] { object(home["score"]) }

    /// A guest with the usual profile who starts a challenge on Monday 2026-11-30 (80 kg, goal 75 kg); the challenge's id.
    static func startChallenge(_ client: any TestClientProtocol) async throws -> (APISession, UUID) {
        let session = try await client.signInWithProfile()
        let started = try await client.api(.post, "/api/v1/challenge", session, json: ["startDate": "2026-11-30", "goalWeight": 75, "startWeight": 80])
        #expect(started.status == .created, "\(started.text)")
        return (session, try #require(UUID(uuidString: object(try started.object()["challenge"])["id"] as? String ?? "")))
    }

    /// Another device's sync push of a day's workout (legs, 40 minutes), expected to be 200; the workout pushed.
    @discardableResult
    static func pushWorkout(_ client: any TestClientProtocol, _ session: APISession, challengeId: UUID, date: LocalDate) async throws -> ChallengeWorkoutLog {
        let workout = ChallengeWorkoutLog(challengeId: challengeId, date: date, type: .legs, minutes: 40, createdAt: clock)
        let change = SyncChange(idempotencyKey: UUID().uuidString, entity: .row, op: .upsert, id: workout.id,
                                collection: ChallengeWorkoutLog.collection, data: try SyncRules.rowData(workout))
        let pushed = try await client.api(.post, "/api/v1/sync/push", session,
                                          body: String(decoding: try SyncCoding.encoder.encode(SyncPushRequest(changes: [change])), as: UTF8.self))
        #expect(pushed.status == .ok, "\(pushed.text)")
        return workout
    }

    /// `GET /api/v1/challenge` as JSON, expected to be 200.
    static func home(_ client: any TestClientProtocol, _ session: APISession) async throws -> [String: Any] {
        let response = try await client.api(.get, "/api/v1/challenge", session)
        #expect(response.status == .ok, "\(response.text)")
        return try response.object()
    }

    @Test("a write from the API, a web form and a sync push each shows on the next Home; so do a meal and a new day", arguments: StoreBackend.allCases)
    func invalidation(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { t, client in
            let session = try await WebDashboardSession.withProfile(client)
            let started = try await session.api(client, .post, "/api/v1/challenge", json: ["startDate": "2026-11-30", "goalWeight": 75, "startWeight": 80])
            #expect(started.status == .created, "\(started.text)")
            let idText = Self.object(try started.object()["challenge"])["id"] as? String
            let challengeId = try #require(UUID(uuidString: idText ?? ""))

            var home = try await Self.home(client, session)
            #expect(Self.state(home, "nutrition") == "pending")
            #expect(Self.state(home, "workout") == "pending")
            #expect(number(Self.score(home)["score"]) == 0)
            // Kept: the same Home twice comes from one snapshot (the cache holds this user's entry).
            home = try await Self.home(client, session)
            #expect(t.services.challengeSnapshots.count == 1)
            #expect(number(home["dayOfChallenge"]) == 2)

            // 1. The API: today's typed nutrition. Score: 50 × 1/7 = 7.14 → 7.
            let nutrition = try await session.api(client, .put, "/api/v1/challenge/days/2026-12-01/nutrition", json: ["kcal": 1_900, "protein": 140])
            #expect(nutrition.status == .ok, "\(nutrition.text)")
            home = try await Self.home(client, session)
            #expect(Self.state(home, "nutrition") == "done")
            #expect(number(Self.object(Self.object(Self.checklist(home)["nutrition"])["log"])["kcal"]) == 1_900)
            #expect(number(Self.score(home)["nutritionDays"]) == 1)
            #expect(number(Self.score(home)["score"]) == 7)

            // 2. A web form: the checklist's habits (all three). 7.14 + 15 × 3/21 = 9.29 → 9.
            let form = try await client.execute(
                uri: "/challenge/log/habits", method: .post,
                headers: [.cookie: session.cookie, .contentType: "application/x-www-form-urlencoded"],
                body: ByteBuffer(string: "_csrf=\(session.csrf)&date=2026-12-01&water=on&steps=on&sleep=on&back=home"))
            #expect(form.status == .seeOther, "\(form.text)")
            home = try await Self.home(client, session)
            #expect(number(Self.object(Self.checklist(home)["habits"])["ticked"]) == 3)
            #expect(number(Self.score(home)["habitTicks"]) == 3)
            #expect(number(Self.score(home)["score"]) == 9)
            var page = try await session.get(client, "/challenge").text
            #expect(page.contains("data-score=\"9\"") && page.contains("Week 1 of 17 · Day 2"), "\(page)")

            // 3. A sync push (a phone): today's workout row. 9.29 + 20 × 1/7 = 12.14 → 12.
            let workout = ChallengeWorkoutLog(challengeId: challengeId, date: LocalDate(iso: "2026-12-01")!, type: .legs, minutes: 40,
                                              createdAt: Self.clock)
            let change = SyncChange(idempotencyKey: UUID().uuidString, entity: .row, op: .upsert, id: workout.id,
                                    collection: ChallengeWorkoutLog.collection, data: try SyncRules.rowData(workout))
            let pushed = try await client.execute(
                uri: "/api/v1/sync/push", method: .post,
                headers: [.cookie: session.cookie, .contentType: "application/json", WebSession.csrfHeader: session.csrf],
                body: ByteBuffer(data: try SyncCoding.encoder.encode(SyncPushRequest(changes: [change]))))
            #expect(pushed.status == .ok, "\(pushed.text)")
            home = try await Self.home(client, session)
            #expect(Self.state(home, "workout") == "done")
            #expect(Self.object(Self.object(Self.checklist(home)["workout"])["log"])["type"] as? String == "legs")
            #expect(number(Self.score(home)["score"]) == 12)

            // 4. w-diet's own meal log: a meal on Monday makes Monday's nutrition done from the meals (2 of 7 days:
            // 14.29 + 2.86 + 2.14 = 19.29 → 19) and makes a 2-day nutrition streak.
            let meal = try await session.api(client, .post, "/api/v1/meals", json: ["name": "Porridge", "calories": 350, "loggedAt": "2026-11-30T07:30:00Z"])
            #expect(meal.status == .created, "\(meal.text)")
            home = try await Self.home(client, session)
            #expect(number(Self.score(home)["nutritionDays"]) == 2)
            #expect(number(Self.score(home)["score"]) == 19)
            page = try await session.get(client, "/challenge").text
            #expect(page.contains("data-score=\"19\""))
            let streaks = (home["streaks"] as? [[String: Any]]) ?? []
            #expect(streaks.first { $0["kind"] as? String == "nutrition" }.map { number($0["current"]) } == 2)

            // 5. No write, a new day: Wednesday, day 3; its checklist is open again, the week's score unchanged.
            t.clock.advance(seconds: 24 * 3_600)
            home = try await Self.home(client, session)
            #expect(home["today"] as? String == "2026-12-02")
            #expect(number(home["dayOfChallenge"]) == 3)
            #expect(Self.state(home, "nutrition") == "pending")
            #expect(number(Self.score(home)["score"]) == 19)
            page = try await session.get(client, "/challenge").text
            #expect(page.contains("Week 1 of 17 · Day 3"))
        }
    }

    /// The user's data generation now, as the next request would find it (PostgreSQL: its session lookup's
    /// `last_version`).
    static func generation(_ t: TestApp, _ session: APISession) async throws -> UInt64? {
        let lookup = try await t.services.accounts.session(tokenHash: SessionToken.hash(session.token))
        return t.services.userDataGeneration(userId: session.userId, dataVersion: lookup?.dataVersion)
    }

    @Test("a day's log saved through the service goes into the kept snapshot (the next Home reads nothing and shows it, with the version to edit from); after another write in between it does not", arguments: StoreBackend.allCases)
    func ownSavesBringTheSnapshotForward(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { t, client in
            let (session, challengeId) = try await Self.startChallenge(client)
            let today = try #require(LocalDate(iso: "2026-12-01"))
            func fetchHome() async throws -> [String: Any] { try await Self.home(client, session) }
            func kept() -> (value: ChallengeSnapshot, generation: UInt64)? { t.services.challengeSnapshots.entry(forUser: session.userId.uuidString) }

            var home = try await fetchHome()
            #expect(Self.state(home, "nutrition") == "pending")
            let before = try #require(kept()).generation
            #expect(before == (try await Self.generation(t, session)))

            // 1. The API's nutrition save (the service's own): the kept snapshot moves to the generation the write
            // left, with the log and its version in it, so the next Home is answered without a read.
            // Score: 50 × 1/7 = 7.14 → 7.
            let saved = try await client.api(.put, "/api/v1/challenge/days/2026-12-01/nutrition", session, json: ["kcal": 1_900, "protein": 140])
            #expect(saved.status == .ok, "\(saved.text)")
            let version = try #require(number(try saved.object()["version"]))
            let entry = try #require(kept())
            #expect(entry.generation == (try await Self.generation(t, session)))
            #expect(entry.generation == before + 1)
            #expect(entry.value.read?.data.nutrition[today]?.kcal == 1_900)
            #expect(entry.value.read?.versions[ChallengeIds.nutrition(challengeId: challengeId, date: today)].map(Double.init) == version)
            home = try await fetchHome()
            let log = Self.object(Self.object(Self.checklist(home)["nutrition"])["log"])
            #expect(Self.state(home, "nutrition") == "done")
            #expect(number(log["kcal"]) == 1_900)
            #expect(number(log["version"]) == version)
            #expect(number(Self.score(home)["score"]) == 7)

            // 2. An edit from the version Home handed out is accepted (it is the stored one), and shows.
            let edited = try await client.api(.put, "/api/v1/challenge/days/2026-12-01/nutrition", session,
                                              json: ["kcal": 2_000, "protein": 140, "baseVersion": version])
            #expect(edited.status == .ok, "\(edited.text)")
            home = try await fetchHome()
            #expect(number(Self.object(Self.object(Self.checklist(home)["nutrition"])["log"])["kcal"]) == 2_000)
            #expect(try #require(kept()).generation == (try await Self.generation(t, session)))

            // 3. Another device's sync push (today's workout), then the service's habits save: two rows since the
            // kept snapshot, so it is not brought forward (it lacks the workout) and the next Home reads again.
            // 7.14 + 20 × 1/7 + 15 × 3/21 = 12.14 → 12 (9 if the workout were missing).
            let kept2 = try #require(kept()).generation
            try await Self.pushWorkout(client, session, challengeId: challengeId, date: today)
            let habits = try await client.api(.put, "/api/v1/challenge/days/2026-12-01/habits", session, json: ["water": true, "steps": true, "sleep": true])
            #expect(habits.status == .ok, "\(habits.text)")
            #expect(try #require(kept()).generation == kept2)
            #expect(kept2 != (try await Self.generation(t, session)))
            home = try await fetchHome()
            #expect(Self.state(home, "workout") == "done")
            #expect(Self.object(Self.object(Self.checklist(home)["workout"])["log"])["type"] as? String == "legs")
            #expect(number(Self.object(Self.checklist(home)["habits"])["ticked"]) == 3)
            #expect(number(Self.score(home)["score"]) == 12)

            // 4. An edit of the habits (the first edit stamps `updatedAt`), then the same again, which writes nothing
            // (same clock, same values): the snapshot stays as that edit left it.
            let edit = try await client.api(.put, "/api/v1/challenge/days/2026-12-01/habits", session, json: ["water": true, "steps": true, "sleep": true])
            #expect(edit.status == .ok, "\(edit.text)")
            let read = try #require(kept()).generation
            #expect(read == (try await Self.generation(t, session)))
            let again = try await client.api(.put, "/api/v1/challenge/days/2026-12-01/habits", session, json: ["water": true, "steps": true, "sleep": true])
            #expect(again.status == .ok, "\(again.text)")
            #expect(try #require(kept()).generation == read)
            #expect(read == (try await Self.generation(t, session)))
        }
    }

    /// The kept snapshot is the one the next Home would read from scratch: the same data (rows, meal totals, weights)
    /// and the same versions, compared with a fresh `ChallengeService.read`; `forwarded`: and at the user's
    /// generation now (brought forward by the save, or read again by a Home since).
    static func expectKeptIsFresh(_ t: TestApp, _ session: APISession, _ step: String) async throws {
        let entry = try #require(t.services.challengeSnapshots.entry(forUser: session.userId.uuidString), "\(step)")
        #expect(entry.generation == (try await Self.generation(t, session)), "\(step): not brought forward")
        let challenge = try #require(entry.value.current?.value, "\(step)")
        let fresh = try await ChallengeService(services: t.services).read(challenge, userId: session.userId)
        #expect(entry.value.read?.data == fresh.data, "\(step)")
        #expect(entry.value.read?.versions == fresh.versions, "\(step)")
        // The Challenge rows' stamp it holds (moved on by a brought-forward save: a create one row more) is the
        // database's: the next Home after a meal keeps the rows only when this holds.
        let stamp = try await ChallengeStore(sync: t.services.sync).rowsStamp(userId: session.userId)
        #expect(entry.value.rowsStamp == stamp, "\(step)")
        #expect(entry.value.current == (try await ChallengeStore(sync: t.services.sync).current(userId: session.userId)), "\(step)")
    }

    @Test("the photo, settings and a day's delete bring the kept snapshot forward too, to exactly what a read from scratch gives; after a weigh-in (also a logged weight: two writes) or a meal Home reads again, reusing the unchanged rows, and gives the same", arguments: StoreBackend.allCases)
    func otherSavesBringTheSnapshotForward(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { t, client in
            let (session, _) = try await Self.startChallenge(client)
            let monday = try #require(LocalDate(iso: "2026-11-30")), today = try #require(LocalDate(iso: "2026-12-01"))
            for day in ["2026-11-30", "2026-12-01"] {
                #expect(try await client.api(.put, "/api/v1/challenge/days/\(day)/nutrition", session, json: ["kcal": 1_900]).status == .ok)
                #expect(try await client.api(.put, "/api/v1/challenge/days/\(day)/workout", session, json: ["type": "push", "minutes": 45]).status == .ok)
                #expect(try await client.api(.put, "/api/v1/challenge/days/\(day)/habits", session, json: ["water": true]).status == .ok)
            }
            let mediaId = MediaAPITests.newId()
            let upload = try await MediaAPITests.put(client, mediaId, try await MediaFixtures.photo(width: 64, height: 64), type: "image/jpeg", session)
            #expect(upload.status == .created || upload.status == .ok, "\(upload.text)")
            func fetchHome() async throws -> [String: Any] { try await Self.home(client, session) }
            func kept() -> ChallengeSnapshot? { t.services.challengeSnapshots.entry(forUser: session.userId.uuidString)?.value }
            var home = try await fetchHome()
            try await Self.expectKeptIsFresh(t, session, "Home read")

            // 1. The week's photo (Tuesday: late).
            let photo = try await client.api(.put, "/api/v1/challenge/weeks/1/photo", session, json: ["mediaId": mediaId])
            #expect(photo.status == .ok, "\(photo.text)")
            try await Self.expectKeptIsFresh(t, session, "photo")
            #expect(kept()?.read?.data.photos[1]?.mediaId.uuidString.lowercased() == mediaId)
            home = try await fetchHome()
            #expect(Self.object(Self.object(home["thisWeek"])["photo"])["late"] as? Bool == true)

            // 2. Settings: app lock on, smart rules off, a Push template of 50 min.
            let settings = try await client.api(.put, "/api/v1/challenge/settings", session,
                                                json: ["appLock": true, "smartRules": false, "workoutTemplates": [["type": "push", "minutes": 50]]])
            #expect(settings.status == .ok, "\(settings.text)")
            try await Self.expectKeptIsFresh(t, session, "settings")
            #expect(kept()?.read?.data.settings?.smartRules == false)
            #expect(kept()?.read?.data.settings?.template(.push).minutes == 50)

            // 3. Deleting today's workout and Monday's habits: gone from the snapshot, as from the database.
            #expect(try await client.api(.delete, "/api/v1/challenge/days/2026-12-01/workout", session).status == .noContent)
            try await Self.expectKeptIsFresh(t, session, "workout deleted")
            #expect(kept()?.read?.data.workouts[today] == nil && kept()?.read?.data.workouts[monday] != nil)
            #expect(try await client.api(.delete, "/api/v1/challenge/days/2026-11-30/habits", session).status == .noContent)
            try await Self.expectKeptIsFresh(t, session, "habits deleted")
            home = try await fetchHome()
            #expect(Self.state(home, "workout") == "pending")
            // Score: nutrition 2 days 14.29 + workout 1 day 2.86 + habits 1 tick of 21 0.71 + photo 10 = 27.86 → 28.
            #expect(number(Self.score(home)["score"]) == 28)

            // 4. A weigh-in is also the day's logged weight: two writes, so it is not brought forward; the next Home
            // reads again (reusing the rows whose versions did not move) and shows it and the weight.
            let weighIn = try await client.api(.post, "/api/v1/challenge/weeks/1/weigh-in", session, json: ["weight": 79.4])
            #expect(weighIn.status == .created || weighIn.status == .ok, "\(weighIn.text)")
            home = try await fetchHome()
            try await Self.expectKeptIsFresh(t, session, "weigh-in, then Home")
            #expect(kept()?.read?.data.weighIns[1]?.kg == 79.4)
            #expect(kept()?.read?.data.weights[today] == 79.4)
            // 27.86 + the weigh-in 5 (late, still counted) = 32.86 → 33.
            #expect(number(Self.score(home)["score"]) == 33)

            // 5. A meal (another path): Home reads again and the meal's day totals are in.
            #expect(try await client.api(.post, "/api/v1/meals", session, json: ["name": "Porridge", "calories": 350, "loggedAt": "2026-12-01T07:30:00Z"]).status == .created)
            home = try await fetchHome()
            try await Self.expectKeptIsFresh(t, session, "meal, then Home")
            #expect(kept()?.read?.data.mealTotals[today]?.kcal == 350)
        }
    }

    @Test("after a meal or a weight (no Challenge row written: the rows' stamp unchanged) Home keeps the challenge and its rows and reads only the meal totals, the weights and the profile again, and equals a read from scratch; a pushed row moves the stamp and Home reads the rows again", arguments: StoreBackend.allCases)
    func writesOutsideTheChallengeKeepItsRows(_ backend: StoreBackend) async throws {
        try await TestApp.test(backend, clockStart: Self.clock) { t, client in
            let (session, challengeId) = try await Self.startChallenge(client)
            let today = try #require(LocalDate(iso: "2026-12-01"))
            #expect(try await client.api(.put, "/api/v1/challenge/days/2026-11-30/nutrition", session, json: ["kcal": 1_900]).status == .ok)
            #expect(try await client.api(.put, "/api/v1/challenge/days/2026-11-30/habits", session, json: ["water": true]).status == .ok)
            func fetchHome() async throws -> [String: Any] { try await Self.home(client, session) }
            let store = ChallengeStore(sync: t.services.sync)
            let key = session.userId.uuidString
            _ = try await fetchHome()
            try await Self.expectKeptIsFresh(t, session, "Home read")
            let stamp = try #require(t.services.challengeSnapshots.entry(forUser: key)?.value.rowsStamp)
            // 3 rows: the challenge, Monday's nutrition and habits; the highest version is the habits save's.
            #expect(stamp.count == 3)
            #expect(stamp.highestVersion == (try await store.row(ChallengeHabitsLog.self, userId: session.userId,
                                                                   id: ChallengeIds.habits(challengeId: challengeId, date: LocalDate(iso: "2026-11-30")!))?.version))

            // The kept entry's challenge marked (a goal no write made): it shows through exactly while the rows are kept.
            func markGoal() throws {
                let entry = try #require(t.services.challengeSnapshots.entry(forUser: key))
                var marked = entry.value
                marked.current?.value.goalWeightKg = 61.5
                marked.read?.data.challenge.goalWeightKg = 61.5
                t.services.challengeSnapshots.store(marked, forUser: key, generation: entry.generation)
            }
            func keptGoal() -> Double? { t.services.challengeSnapshots.entry(forUser: key)?.value.current?.value.goalWeightKg }
            try markGoal()

            // 1. A meal today: Home reads again (a new generation) but keeps the rows; today's nutrition is done from
            // the meal (450 kcal), Monday's typed 1,900 stays.
            #expect(try await client.api(.post, "/api/v1/meals", session, json: ["name": "Porridge", "calories": 450, "loggedAt": "2026-12-01T07:30:00Z"]).status == .created)
            var home = try await fetchHome()
            #expect(keptGoal() == 61.5)
            #expect(Self.state(home, "nutrition") == "done")
            #expect(number(Self.object(Self.object(Self.checklist(home)["nutrition"])["mealTotals"])["kcal"]) == 450)
            var entry = try #require(t.services.challengeSnapshots.entry(forUser: key))
            #expect(entry.generation == (try await Self.generation(t, session)))
            #expect(entry.value.rowsStamp == stamp)
            let fresh = try await ChallengeService(services: t.services).read(try #require(entry.value.current?.value), userId: session.userId)
            #expect(entry.value.read?.data.mealTotals == fresh.data.mealTotals)
            #expect(entry.value.read?.data.mealTotals[today]?.kcal == 450)
            #expect(entry.value.read?.versions == fresh.versions)
            // The Log's day and the week answer from the same snapshot: the meal is in.
            let day = try await client.api(.get, "/api/v1/challenge/days/2026-12-01", session)
            #expect(day.status == .ok, "\(day.text)")
            #expect(number(Self.object(Self.object(try day.object()["nutrition"])["mealTotals"])["kcal"]) == 450)

            // 2. A weight today: in the kept data's weights, rows still kept.
            #expect(try await client.api(.post, "/api/v1/weights", session, json: ["kg": 79.2, "loggedAt": "2026-12-01T07:00:00Z"]).status == .created)
            _ = try await fetchHome()
            entry = try #require(t.services.challengeSnapshots.entry(forUser: key))
            #expect(keptGoal() == 61.5)
            #expect(entry.value.read?.data.weights[today] == 79.2)
            #expect(entry.value.read?.data.weights == (try await ChallengeService(services: t.services).read(entry.value.current!.value, userId: session.userId)).data.weights)

            // 3. Another device pushes today's workout: the stamp moves (one row more, its version the highest), so
            // the challenge and rows are read again — the mark is gone and the kept entry equals a read from scratch.
            let workout = try await Self.pushWorkout(client, session, challengeId: challengeId, date: today)
            home = try await fetchHome()
            #expect(keptGoal() == 75)
            #expect(Self.state(home, "workout") == "done")
            let pushedDay = try await client.api(.get, "/api/v1/challenge/days/2026-12-01", session)
            let pushedWorkout = Self.object(Self.object(try pushedDay.object()["workout"])["log"])
            #expect(pushedWorkout["type"] as? String == "legs")
            let storedWorkout = try await store.row(ChallengeWorkoutLog.self, userId: session.userId, id: workout.id)
            #expect(number(pushedWorkout["version"]) == storedWorkout.map { Double($0.version) })
            try await Self.expectKeptIsFresh(t, session, "pushed workout, then Home")
            let moved = try #require(t.services.challengeSnapshots.entry(forUser: key)?.value.rowsStamp)
            #expect(moved.count == 4)
            #expect(moved.highestVersion > stamp.highestVersion)

            // 4. Deleting a row through the service (a tombstone: the same count, a new highest version) brings the
            // kept stamp forward to the database's.
            #expect(try await client.api(.delete, "/api/v1/challenge/days/2026-12-01/workout", session).status == .noContent)
            #expect(Self.state(try await fetchHome(), "workout") == "pending")
            try await Self.expectKeptIsFresh(t, session, "workout deleted, then Home")
            #expect(t.services.challengeSnapshots.entry(forUser: key)?.value.rowsStamp?.count == 4)
        }
    }
}
