import Foundation
import Logging
import WDietCore
import WDietStore

/// A weigh-in (or photo) for a week that already has one, asked for as new (003 "1 weigh-in/week: Disable
/// duplicates, show 'Already logged this week'"): the existing one is handed back so the screen offers to edit it.
struct ChallengeAlreadyLogged: Error, Sendable {
    var existing: SyncJSON
}

/// A user's Challenge as the read-only screens need it, kept per process by data generation
/// (`ChallengeService.snapshot`).
struct ChallengeSnapshot: Sendable {
    var profile: Profile?
    var current: StoredChallengeRow<Challenge>?
    /// The current challenge's rows, meals and weights; nil without a challenge.
    var read: ChallengeRead?
    /// The Challenge collections' stamp taken before `current` and `read` were read (`ChallengeStore.rowsStamp`), or
    /// after the one write a `bringForward` applied; nil when not known.
    var rowsStamp: SyncRowsStamp?

    /// "Today" is the profile's local day, worked out from the clock on each use (never kept).
    func context(now: Date) -> ChallengeService.Context {
        ChallengeService.Context(profile: profile, today: LocalDate(now, in: profile?.timeZone ?? .gmt))
    }
}

/// The Challenge's use cases (issue 20, docs/challenge.md) below the API and, next, the web screens: each validates,
/// saves through `ChallengeStore` (synced rows) and throws `InvalidInput`, `ChallengeConflict`, `ChallengeAlreadyLogged`
/// or store errors, never HTTP errors. "Today" is the user's local day (the profile's time zone; UTC without one:
/// a person may run the challenge without the coach).
struct ChallengeService: Sendable {
    let services: AppServices

    var store: ChallengeStore { ChallengeStore(sync: services.sync) }

    static var noChallenge: StoreError { .notFound(Strings.current("challenge.noChallenge")) }
    static var logNotFound: StoreError { .notFound(Strings.current("challenge.logNotFound")) }

    struct Context: Sendable {
        var profile: Profile?
        var today: LocalDate
        /// The MATADOR cycle of a user on the Lose plan (the goal pace is flat in its maintenance blocks).
        var matador: MatadorCycle? {
            guard let profile, profile.goal == .lose else { return nil }
            return MatadorCycle(planStart: profile.planStartDate)
        }
    }

    func context(userId: UUID) async throws -> Context {
        let profile = try await services.profiles.profile(userId: userId)?.profile
        return Context(profile: profile, today: LocalDate(services.now(), in: profile?.timeZone ?? .gmt))
    }

    func current(userId: UUID) async throws -> StoredChallengeRow<Challenge> {
        guard let current = try await store.current(userId: userId) else { throw Self.noChallenge }
        return current
    }

    /// Everything the rules need, with the user's meals (day totals) and daily weights from the week before the start
    /// to the end.
    func data(_ challenge: Challenge, userId: UUID) async throws -> ChallengeData {
        try await read(challenge, userId: userId).data
    }

    /// What the screens that only read need of a user — the profile (today, the MATADOR cycle), the current
    /// challenge and its `ChallengeRead` — from the process's cache (`AppServices.challengeSnapshots`) while the user's
    /// data generation is the one it was read at, else read and kept. The generation moves on with every committed
    /// write of the user's profile, meals, weights, logged days or synced rows (a challenge row is one), whichever
    /// route or process made it: on SQLite `UserDataChanges` (one process owns the file), on PostgreSQL the user's
    /// `last_version` as this request's session lookup read it (every such write takes a new version in its
    /// transaction). Both are taken before the read, so a write committing meanwhile leaves the entry behind, never
    /// ahead. `dataVersion` is the request's (`userDataVersion`); pass nil after a write in the same request (its
    /// version is older than the write) — without a generation the database is read every time.
    func snapshot(userId: UUID, dataVersion: Int64?) async throws -> ChallengeSnapshot {
        let key = userId.uuidString
        let generation = services.userDataGeneration(userId: userId, dataVersion: dataVersion)
        if let generation, let kept = services.challengeSnapshots.value(forUser: key, generation: generation) { return kept }
        // The entry a write left behind: when no Challenge row was written since (the stamp is the one it was read
        // at: a meal, a weight, the profile), its challenge and rows are kept as they are and only the meals' day
        // totals and the weights are read again; else its rows whose versions are unchanged are taken as they are
        // (`ChallengeStore.read`). The stamp is taken before anything it vouches for is read.
        let earlier = services.challengeSnapshots.entry(forUser: key)?.value
        async let profile = services.profiles.profile(userId: userId)?.profile
        let stamp = try await store.rowsStamp(userId: userId)
        var snapshot: ChallengeSnapshot
        if let earlier, let earlierStamp = earlier.rowsStamp, earlierStamp == stamp {
            snapshot = earlier
            if let current = earlier.current, var read = earlier.read {
                (read.data.mealTotals, read.data.weights) = try await mealsAndWeights(current.value, userId: userId)
                snapshot.read = read
            }
        } else {
            let current = try await store.current(userId: userId)
            var read: ChallengeRead?
            if let current { read = try await self.read(current.value, userId: userId, reusing: earlier?.read) }
            snapshot = ChallengeSnapshot(profile: nil, current: current, read: read, rowsStamp: stamp)
        }
        snapshot.profile = try await profile
        if let generation { services.challengeSnapshots.store(snapshot, forUser: key, generation: generation) }
        return snapshot
    }

    /// `data` with each row's version; `reusing` an earlier read's rows whose versions are unchanged.
    func read(_ challenge: Challenge, userId: UUID, reusing earlier: ChallengeRead? = nil) async throws -> ChallengeRead {
        async let rows = store.read(userId: userId, challenge: challenge, reusing: earlier)
        let (totals, weights) = try await mealsAndWeights(challenge, userId: userId)
        var read = try await rows
        (read.data.mealTotals, read.data.weights) = (totals, weights)
        return read
    }

    /// w-diet's meal totals by day and daily weights (kg) that the challenge's rules read: from the week before the
    /// start to the end.
    func mealsAndWeights(_ challenge: Challenge, userId: UUID) async throws -> ([LocalDate: DailyTotals], [LocalDate: Double]) {
        let from = challenge.startDate.adding(days: -7), through = challenge.lastDate
        async let totals = services.meals.dayTotals(userId: userId, from: from, through: through)
        var weights: [LocalDate: Double] = [:]
        for weight in try await services.weights.dailyWeights(userId: userId) where weight.localDate >= from && weight.localDate <= through {
            weights[weight.localDate] = weight.entry.kg
        }
        return (try await totals, weights)
    }

    // MARK: - The challenge

    /// Starts a challenge: the next Monday (or the Monday given), 17 weeks, the goal weight required; the start
    /// weight defaults to the latest logged weight, the unit to the profile's.
    func start(_ body: ChallengeBody, userId: UUID) async throws -> StoredChallengeRow<Challenge> {
        let context = try await context(userId: userId)
        var errors: [String: String] = [:]
        let unit = Self.unit(body.weightUnit, default: context.profile?.weightUnit ?? .kg, errors: &errors)
        let startDate = Self.date(body.startDate, errors: &errors) ?? Challenge.nextMonday(onOrAfter: context.today)
        let weeks = Self.integer(body.weeks, member: "weeks", errors: &errors) ?? Challenge.defaultWeeks
        let goal = Self.weight(body.goalWeight, member: "goalWeight", unit: unit, required: true, errors: &errors)
        var startWeight = Self.weight(body.startWeight, member: "startWeight", unit: unit, required: false, errors: &errors)
        if body.startWeight.isAbsent { startWeight = try await services.weights.latestWeight(userId: userId)?.entry.kg }
        guard errors.isEmpty, let goal else { throw InvalidInput(errors) }
        let challenge = Challenge(startDate: startDate, weeks: weeks, startWeightKg: startWeight, goalWeightKg: goal, weightUnit: unit,
                                  createdAt: services.now())
        return try await save(challenge, baseVersion: nil, userId: userId, renaming: ["goalWeightKg": "goalWeight", "startWeightKg": "startWeight"])
    }

    /// Changes the current challenge: start date, weeks, goal and start weight, unit; members left out stay.
    func update(_ body: ChallengeBody, userId: UUID) async throws -> StoredChallengeRow<Challenge> {
        let current = try await current(userId: userId)
        var challenge = current.value
        var errors: [String: String] = [:]
        let unit = Self.unit(body.weightUnit, default: challenge.weightUnit, errors: &errors)
        challenge.weightUnit = unit
        if let date = Self.date(body.startDate, errors: &errors) { challenge.startDate = date }
        if let weeks = Self.integer(body.weeks, member: "weeks", errors: &errors) { challenge.weeks = weeks }
        if let goal = Self.weight(body.goalWeight, member: "goalWeight", unit: unit, required: false, errors: &errors) { challenge.goalWeightKg = goal }
        if case .null = body.startWeight { challenge.startWeightKg = nil }
        if let start = Self.weight(body.startWeight, member: "startWeight", unit: unit, required: false, errors: &errors) { challenge.startWeightKg = start }
        guard errors.isEmpty else { throw InvalidInput(errors) }
        challenge.updatedAt = max(services.now(), challenge.createdAt)
        return try await save(challenge, baseVersion: body.baseVersion.value ?? current.version, userId: userId,
                              renaming: ["goalWeightKg": "goalWeight", "startWeightKg": "startWeight"])
    }

    /// Deletes the current challenge and every row of it, and its weekly photos from the media store
    /// (docs/media.md); returns how many rows went.
    func deleteCurrent(userId: UUID) async throws -> Int {
        let id = try await current(userId: userId).id
        let photos = try await store.rows(ChallengePhoto.self, userId: userId, challengeId: id).map(\.value.mediaId)
        let deleted = try await store.deleteChallenge(id: id, userId: userId)
        try await MediaReferences(media: services.media).deleteUnreferenced(photos, userId: userId, journal: services.journal)
        return deleted
    }

    // MARK: - A day

    /// The running challenge, when `date` is a day of it that may be logged. Reads nothing else: a day's save needs
    /// neither the meals nor the weights that `data` reads.
    func day(_ date: LocalDate, userId: UUID) async throws -> (Challenge, Context) {
        let context = try await context(userId: userId)
        let challenge = try await current(userId: userId).value
        try Self.check(day: date, of: challenge, today: context.today)
        return (challenge, context)
    }

    /// `date` is a day of `challenge` that may be logged `today`; else its field errors.
    static func check(day date: LocalDate, of challenge: Challenge, today: LocalDate) throws {
        do { try challenge.checkDay(date, today: today) } catch { throw InvalidInput(error.errors) }
    }

    func saveNutrition(_ body: ChallengeNutritionBody, date: LocalDate, userId: UUID) async throws -> StoredChallengeRow<ChallengeNutritionLog> {
        let kept = keptSnapshot(userId: userId)
        let (challenge, _) = try await day(date, userId: userId)
        let id = ChallengeIds.nutrition(challengeId: challenge.id, date: date)
        let existing = try await store.row(ChallengeNutritionLog.self, userId: userId, id: id)
        var errors: [String: String] = [:]
        let status = Self.choice(body.status, ChallengeNutritionStatus.self, member: "status", default: .logged, errors: &errors)
        let source = Self.choice(body.source, ChallengeNutritionSource.self, member: "source", default: .typed, errors: &errors)
        var log = ChallengeNutritionLog(challengeId: challenge.id, date: date, status: status, source: source,
                                        createdAt: Self.live(existing)?.createdAt ?? services.now())
        log.kcal = Self.number(body.kcal, member: "kcal", errors: &errors)
        log.protein = Self.number(body.protein, member: "protein", errors: &errors)
        log.carbs = Self.number(body.carbs, member: "carbs", errors: &errors)
        log.fat = Self.number(body.fat, member: "fat", errors: &errors)
        log.notes = Self.notes(body.notes)
        if Self.live(existing) != nil { log.updatedAt = max(services.now(), log.createdAt) }
        guard errors.isEmpty else { throw InvalidInput(errors) }
        return try await saveDay(log, \.nutrition, existing: existing, baseVersion: body.baseVersion.value, kept: kept, userId: userId)
    }

    func saveWorkout(_ body: ChallengeWorkoutBody, date: LocalDate, userId: UUID) async throws -> StoredChallengeRow<ChallengeWorkoutLog> {
        let kept = keptSnapshot(userId: userId)
        let (challenge, _) = try await day(date, userId: userId)
        let id = ChallengeIds.workout(challengeId: challenge.id, date: date)
        let existing = try await store.row(ChallengeWorkoutLog.self, userId: userId, id: id)
        var errors: [String: String] = [:]
        guard body.type.value != nil else { throw InvalidInput(["type": Strings.current("challenge.invalidValue")]) }
        let type = Self.choice(body.type, ChallengeWorkoutType.self, member: "type", default: .push, errors: &errors)
        var log = ChallengeWorkoutLog(challengeId: challenge.id, date: date, type: type, createdAt: Self.live(existing)?.createdAt ?? services.now())
        log.minutes = Self.integer(body.minutes, member: "minutes", errors: &errors)
        log.notes = Self.notes(body.notes)
        if body.useTemplate.value == true {
            let template = try await settings(of: challenge, userId: userId).0.template(type)
            if body.minutes.isAbsent { log.minutes = template.minutes }
            if body.notes.isAbsent { log.notes = template.notes }
        }
        if Self.live(existing) != nil { log.updatedAt = max(services.now(), log.createdAt) }
        guard errors.isEmpty else { throw InvalidInput(errors) }
        return try await saveDay(log, \.workouts, existing: existing, baseVersion: body.baseVersion.value, kept: kept, userId: userId)
    }

    func saveHabits(_ body: ChallengeHabitsBody, date: LocalDate, userId: UUID) async throws -> StoredChallengeRow<ChallengeHabitsLog> {
        let kept = keptSnapshot(userId: userId)
        let (challenge, _) = try await day(date, userId: userId)
        let id = ChallengeIds.habits(challengeId: challenge.id, date: date)
        let existing = try await store.row(ChallengeHabitsLog.self, userId: userId, id: id)
        let old = Self.live(existing)
        var log = ChallengeHabitsLog(challengeId: challenge.id, date: date, water: body.water.value ?? old?.water ?? false,
                                     steps: body.steps.value ?? old?.steps ?? false, sleep: body.sleep.value ?? old?.sleep ?? false,
                                     createdAt: old?.createdAt ?? services.now())
        if old != nil { log.updatedAt = max(services.now(), log.createdAt) }
        return try await saveDay(log, \.habits, existing: existing, baseVersion: body.baseVersion.value, kept: kept, userId: userId)
    }

    /// The user's kept snapshot as it is before a write (take it before reading what the write starts from).
    func keptSnapshot(userId: UUID) -> KeptSnapshot? {
        services.challengeSnapshots.entry(forUser: userId.uuidString)
    }

    /// Saves a day's log and puts it into the kept snapshot (`bringForward`). A save that wrote nothing (the same
    /// log again: it keeps the version it had) changes nothing. The log is put in as a read would decode it from its
    /// stored text, and only where the day has no row of another id (the read would keep the first).
    private func saveDay<V: ChallengeRowValue>(
        _ log: V, _ days: WritableKeyPath<ChallengeData, [LocalDate: V]>, existing: StoredChallengeRow<V>?, baseVersion: Int64?,
        kept: KeptSnapshot?, userId: UUID
    ) async throws -> StoredChallengeRow<V> {
        let saved = try await save(log, baseVersion: baseVersion ?? existing?.version, userId: userId)
        guard saved.version != existing?.version, let date = Self.day(of: log) else { return saved }
        bringForward(kept, challengeId: log.challengeId, writtenAt: saved.version, addingRow: existing == nil, userId: userId) { read in
            guard let stored = try? SyncRules.decodeRow(V.self, SyncRules.rowData(log)),
                  read.data[keyPath: days][date].map({ $0.id == log.id }) ?? true else { return false }
            read.data[keyPath: days][date] = stored
            read.versions[log.id] = saved.version
            return true
        }
        return saved
    }

    typealias KeptSnapshot = (value: ChallengeSnapshot, generation: UInt64)

    /// When the kept snapshot (`kept`, taken before anything was read for the write) was current right up to a
    /// write of one row at `version`, applies that write to it (`change`; false: leave it) and keeps it at the
    /// generation the write left, so the next Home needs no read. Never stale: only when the user's data generation
    /// moved on by exactly the one row this write wrote since the snapshot's (`AppServices.generation(afterWritingOneRowAt:)`:
    /// on SQLite the count of the user's changed rows, which a group-committed batch moves on by each write's rows;
    /// on PostgreSQL the user's versions) — any other write in between (a sync push, another device, another
    /// process, a meal) leaves the snapshot behind and the next Home reads again. The Challenge rows' stamp moves on
    /// with it: this write's version is now the highest of them, and a row more when it was a create (`addingRow`:
    /// the id had no row, not even a tombstone). A wrong guess there can only make the next stamp differ (a read).
    private func bringForward(_ kept: KeptSnapshot?, challengeId: UUID, writtenAt version: Int64, addingRow: Bool, userId: UUID,
                              _ change: (inout ChallengeRead) -> Bool) {
        guard let kept, var read = kept.value.read, kept.value.current?.id == challengeId else { return }
        let generation = services.generation(afterWritingOneRowAt: version, userId: userId)
        guard generation == kept.generation &+ 1, change(&read) else { return }
        var snapshot = kept.value
        snapshot.read = read
        snapshot.rowsStamp = kept.value.rowsStamp.map { SyncRowsStamp(count: $0.count + (addingRow ? 1 : 0), highestVersion: version) }
        services.challengeSnapshots.store(snapshot, forUser: userId.uuidString, generation: generation)
    }

    /// A week's row (photo) or the settings saved: into the kept snapshot as a read would decode it.
    private func bringForward<V: ChallengeRowValue>(_ saved: StoredChallengeRow<V>, previousVersion: Int64?, kept: KeptSnapshot?,
                                                    userId: UUID, into place: @escaping (inout ChallengeData, V) -> Void) {
        guard saved.version != previousVersion else { return }
        bringForward(kept, challengeId: saved.value.challengeId, writtenAt: saved.version, addingRow: previousVersion == nil, userId: userId) { read in
            guard let stored = try? SyncRules.decodeRow(V.self, SyncRules.rowData(saved.value)) else { return false }
            place(&read.data, stored)
            read.versions[saved.id] = saved.version
            return true
        }
    }

    private static func day(of log: some ChallengeRowValue) -> LocalDate? {
        switch log {
        case let log as ChallengeNutritionLog: log.date
        case let log as ChallengeWorkoutLog: log.date
        case let log as ChallengeHabitsLog: log.date
        default: nil
        }
    }

    /// Deletes a day's log of a kind (`nutrition`, `workout`, `habits`).
    /// The day's row leaves the kept snapshot too (`bringForward`): a day has one row of a kind (its id is derived
    /// from the date), so a fresh read would find none.
    func deleteDayLog(kind: String, date: LocalDate, userId: UUID) async throws {
        let kept = keptSnapshot(userId: userId)
        let challenge = try await current(userId: userId).value
        let id: UUID
        let version: Int64?
        let remove: (inout ChallengeData) -> Void
        switch kind {
        case "nutrition":
            id = ChallengeIds.nutrition(challengeId: challenge.id, date: date)
            version = try await store.deleteRow(ChallengeNutritionLog.self, id: id, baseVersion: nil, userId: userId)
            remove = { $0.nutrition[date] = nil }
        case "workout":
            id = ChallengeIds.workout(challengeId: challenge.id, date: date)
            version = try await store.deleteRow(ChallengeWorkoutLog.self, id: id, baseVersion: nil, userId: userId)
            remove = { $0.workouts[date] = nil }
        case "habits":
            id = ChallengeIds.habits(challengeId: challenge.id, date: date)
            version = try await store.deleteRow(ChallengeHabitsLog.self, id: id, baseVersion: nil, userId: userId)
            remove = { $0.habits[date] = nil }
        default:
            throw Self.logNotFound
        }
        guard let version else { throw Self.logNotFound }
        bringForward(kept, challengeId: challenge.id, writtenAt: version, addingRow: false, userId: userId) { read in
            remove(&read.data)
            read.versions[id] = nil
            return true
        }
    }

    // MARK: - A week

    func week(_ week: Int, userId: UUID) async throws -> (Challenge, Context) {
        let context = try await context(userId: userId)
        let challenge = try await current(userId: userId).value
        try Self.check(week: week, of: challenge, today: context.today)
        return (challenge, context)
    }

    /// `week` is a week of `challenge` that may be checked in `today`; else its field errors.
    static func check(week: Int, of challenge: Challenge, today: LocalDate) throws {
        do { try challenge.checkWeek(week, today: today) } catch { throw InvalidInput(error.errors) }
    }

    /// The week's photo: replaces the week's photo (003 "Edit Photo"); taken today, so late after the Monday.
    func savePhoto(_ body: ChallengePhotoBody, week: Int, userId: UUID) async throws -> StoredChallengeRow<ChallengePhoto> {
        let kept = keptSnapshot(userId: userId)
        let (challenge, context) = try await self.week(week, userId: userId)
        guard let text = body.mediaId.value, let mediaId = UUID(uuidString: text) else {
            throw InvalidInput(["mediaId": Strings.current("api.uuid")])
        }
        guard try await services.media.media(id: mediaId, userId: userId) != nil else {
            throw InvalidInput(["mediaId": Strings.current("challenge.mediaMissing")])
        }
        let id = ChallengeIds.photo(challengeId: challenge.id, week: week)
        let existing = try await store.row(ChallengePhoto.self, userId: userId, id: id)
        var photo = ChallengePhoto(challengeId: challenge.id, week: week, mediaId: mediaId, takenOn: context.today,
                                   createdAt: Self.live(existing)?.createdAt ?? services.now())
        if Self.live(existing) != nil { photo.updatedAt = max(services.now(), photo.createdAt) }
        let saved = try await save(photo, baseVersion: body.baseVersion.value ?? existing?.version, userId: userId)
        bringForward(saved, previousVersion: existing?.version, kept: kept, userId: userId) { data, photo in data.photos[photo.week] = photo }
        return saved
    }

    /// The week's weigh-in. `isNew`: a second one the same week is `ChallengeAlreadyLogged` ("Already logged this
    /// week"); an edit (`PUT`) replaces it and keeps the day it was first logged, so editing never makes it late.
    func saveWeighIn(_ body: ChallengeWeighInBody, week: Int, isNew: Bool, userId: UUID) async throws -> StoredChallengeRow<ChallengeWeighIn> {
        let (challenge, context) = try await self.week(week, userId: userId)
        let id = ChallengeIds.weighIn(challengeId: challenge.id, week: week)
        let existing = try await store.row(ChallengeWeighIn.self, userId: userId, id: id)
        if isNew, let existing, !existing.isDeleted { throw ChallengeAlreadyLogged(existing: try ChallengeJSON.row(existing)) }
        let old = Self.live(existing)
        var errors: [String: String] = [:]
        let unit = challenge.weightUnit
        let kg = Self.weight(body.weight, member: "weight", unit: unit, required: true, errors: &errors)
        func length(_ field: JSONField<NumberInput>, _ member: String) -> Double? {
            guard let value = Self.number(field, member: member, errors: &errors) else { return nil }
            return unit == .lb ? Units.tenth(value * Units.centimetresPerInch) : value
        }
        let waist = length(body.waist, "waist"), hips = length(body.hips, "hips"), chest = length(body.chest, "chest")
        guard errors.isEmpty, let kg else { throw InvalidInput(errors) }
        var weighIn = ChallengeWeighIn(challengeId: challenge.id, week: week, kg: kg, loggedOn: old?.loggedOn ?? context.today,
                                       waistCm: waist, hipsCm: hips, chestCm: chest, notes: Self.notes(body.notes),
                                       createdAt: old?.createdAt ?? services.now())
        if old != nil { weighIn.updatedAt = max(services.now(), weighIn.createdAt) }
        let saved = try await save(weighIn, baseVersion: body.baseVersion.value ?? existing?.version, userId: userId,
                                   renaming: ["kg": "weight", "waistCm": "waist", "hipsCm": "hips", "chestCm": "chest"])
        try await logWeight(of: saved.value, profile: context.profile, userId: userId)
        return saved
    }

    /// A weigh-in is a weighing: it is also the day's entry in w-diet's weight log (docs/challenge.md "A weigh-in is
    /// also a logged weight"), under the weigh-in's own id, so an edit changes that entry instead of adding one.
    /// Only with a profile (the weight log's day is the profile's): someone running the challenge alone has none.
    func logWeight(of weighIn: ChallengeWeighIn, profile: Profile?, userId: UUID) async throws {
        guard let profile else { return }
        if let entry = try await services.weights.weightHistory(userId: userId).first(where: { $0.id == weighIn.id }) {
            guard entry.entry.kg != weighIn.kg else { return }
            _ = try await services.weights.saveWeight(WeightEntry(id: weighIn.id, kg: weighIn.kg, loggedAt: entry.entry.loggedAt),
                                                      userId: userId, timeZone: profile.timeZone)
            return
        }
        _ = try await WeightLogging(services: services).log(WeightEntry(id: weighIn.id, kg: weighIn.kg, loggedAt: services.now()),
                                                            userId: userId, profile: profile, logger: Self.logger)
    }

    static let logger = Logger(label: "wdiet.challenge")

    // MARK: - Settings

    func settings(userId: UUID) async throws -> (ChallengeSettings, Int64?) {
        try await settings(of: try await current(userId: userId).value, userId: userId)
    }

    /// The challenge's settings, or the defaults while none were saved; with the row's version.
    func settings(of challenge: Challenge, userId: UUID) async throws -> (ChallengeSettings, Int64?) {
        let row = try await store.row(ChallengeSettings.self, userId: userId, id: ChallengeIds.settings(challengeId: challenge.id))
        if let row, !row.isDeleted { return (row.value, row.version) }
        return (ChallengeSettings(challengeId: challenge.id, updatedAt: services.now()), row?.version)
    }

    func saveSettings(_ body: ChallengeSettingsBody, userId: UUID) async throws -> StoredChallengeRow<ChallengeSettings> {
        let kept = keptSnapshot(userId: userId)
        var (settings, version) = try await settings(userId: userId)
        var errors: [String: String] = [:]
        if let reminders = body.reminders.value {
            var chosen = settings.reminders
            for (index, reminder) in reminders.enumerated() {
                guard let kind = ChallengeReminderKind(rawValue: reminder.kind) else {
                    errors["reminders.\(index).kind"] = Strings.current("challenge.invalidValue")
                    continue
                }
                var value = settings.reminder(kind)
                if let enabled = reminder.enabled { value.enabled = enabled }
                if let text = reminder.time {
                    if let time = JournalTime(text) { value.time = time } else { errors["reminders.\(index).time"] = Strings.current("challenge.invalidValue") }
                }
                chosen.removeAll { $0.kind == kind }
                chosen.append(value)
            }
            settings.reminders = ChallengeReminderKind.allCases.compactMap { kind in chosen.first { $0.kind == kind } }
        }
        if let smart = body.smartRules.value { settings.smartRules = smart }
        if let appLock = body.appLock.value { settings.appLock = appLock }
        if let minutes = body.lockAfterMinutes.value { settings.lockAfterMinutes = minutes }
        if let templates = body.workoutTemplates.value {
            var chosen: [ChallengeWorkoutTemplate] = []
            for (index, template) in templates.enumerated() {
                guard let type = ChallengeWorkoutType(rawValue: template.type) else {
                    errors["workoutTemplates.\(index).type"] = Strings.current("challenge.invalidValue")
                    continue
                }
                chosen.append(ChallengeWorkoutTemplate(type: type, minutes: template.minutes, notes: template.notes))
            }
            settings.workoutTemplates = chosen
        }
        guard errors.isEmpty else { throw InvalidInput(errors) }
        settings.updatedAt = services.now()
        let saved = try await save(settings, baseVersion: body.baseVersion.value ?? version, userId: userId)
        bringForward(saved, previousVersion: version, kept: kept, userId: userId) { data, settings in data.settings = settings }
        return saved
    }

    // MARK: - Helpers

    /// Saves through the store; the row's rules answer as field messages (renamed to the API's member names).
    private func save<V: ChallengeRowValue>(_ value: V, baseVersion: Int64?, userId: UUID, renaming: [String: String] = [:])
        async throws -> StoredChallengeRow<V>
    {
        do {
            return try await store.save(value, baseVersion: baseVersion, userId: userId)
        } catch let invalid as ChallengeInvalid {
            throw InvalidInput(Dictionary(uniqueKeysWithValues: invalid.errors.map { (renaming[$0.key] ?? $0.key, $0.value) }))
        }
    }

    static func live<V>(_ row: StoredChallengeRow<V>?) -> V? { row.flatMap { $0.isDeleted ? nil : $0.value } }

    static func notes(_ field: JSONField<String>) -> String? {
        guard let text = field.value?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        return text
    }

    static func date(_ field: JSONField<String>, errors: inout [String: String]) -> LocalDate? {
        guard let text = field.value else { return nil }
        guard let date = LocalDate(iso: text.trimmingCharacters(in: .whitespaces)) else {
            errors["startDate"] = Strings.current("api.date")
            return nil
        }
        return date
    }

    static func unit(_ field: JSONField<String>, default value: WeightUnit, errors: inout [String: String]) -> WeightUnit {
        guard let text = field.value else { return value }
        guard let unit = WeightUnit(rawValue: text) else {
            errors["weightUnit"] = Strings.current("challenge.invalidValue")
            return value
        }
        return unit
    }

    static func choice<T: RawRepresentable>(_ field: JSONField<String>, _ type: T.Type, member: String, default value: T,
                                            errors: inout [String: String]) -> T where T.RawValue == String {
        guard let text = field.value else { return value }
        guard let choice = T(rawValue: text) else {
            errors[member] = Strings.current("challenge.invalidValue")
            return value
        }
        return choice
    }

    static func number(_ field: JSONField<NumberInput>, member: String, errors: inout [String: String]) -> Double? {
        switch field.numeric {
        case .missing: return nil
        case .invalid:
            errors[member] = Strings.current("challenge.invalidValue")
            return nil
        case .value(let value): return value
        }
    }

    static func integer(_ field: JSONField<NumberInput>, member: String, errors: inout [String: String]) -> Int? {
        guard let value = number(field, member: member, errors: &errors) else { return nil }
        guard value == value.rounded(), abs(value) < 1_000_000 else {
            errors[member] = Strings.current("challenge.invalidValue")
            return nil
        }
        return Int(value)
    }

    /// A weight in the unit given, as kg (0.1 precision, as w-diet keeps weights).
    static func weight(_ field: JSONField<NumberInput>, member: String, unit: WeightUnit, required: Bool, errors: inout [String: String]) -> Double? {
        guard let value = number(field, member: member, errors: &errors) else {
            if required && errors[member] == nil { errors[member] = ChallengeMessages.weight }
            return nil
        }
        let kg = unit == .lb ? Units.kilograms(fromPounds: value) : Units.tenth(value)
        guard Challenge.weightRange.contains(kg) else {
            errors[member] = ChallengeMessages.weight
            return nil
        }
        return kg
    }
}

enum ChallengeMessages {
    static var weight: String { Strings.current("challenge.weightRange", ["min": "20", "max": "500"]) }
}
