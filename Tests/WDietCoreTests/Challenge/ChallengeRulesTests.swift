import Foundation
import Testing
@testable import WDietCore

/// Issue 20's rules with worked numbers: derived ids, the compliance score and its colours, streaks per kind, late
/// entries, the goal pace (straight, and flat in MATADOR maintenance blocks), current vs expected pace, weekly macro
/// averages and the Smart Rules of reminders.
@Suite("Challenge rules")
struct ChallengeRulesTests {
    typealias T = ChallengeTestData

    // MARK: Ids

    @Test("derived ids are RFC 9562 version 5 UUIDs (Python's uuid5 gives the same)")
    func derivedIds() {
        let dns = UUID(uuidString: "6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(ChallengeIds.v5(dns, "python.org") == UUID(uuidString: "886313e1-3b8a-5372-9b90-0c9aee199e5d"))
        #expect(ChallengeIds.nutrition(challengeId: T.id, date: T.start) == UUID(uuidString: "6353cb31-d36d-5c5e-8b8d-abf785074f27"))
        #expect(ChallengeIds.photo(challengeId: T.id, week: 3) == UUID(uuidString: "2e46398d-635b-52c9-a3b2-21dcece5d481"))
        // One id per day and kind, per week and kind, per challenge.
        let ids: [UUID] = [
            ChallengeIds.nutrition(challengeId: T.id, date: T.start), ChallengeIds.nutrition(challengeId: T.id, date: T.day(1)),
            ChallengeIds.workout(challengeId: T.id, date: T.start), ChallengeIds.habits(challengeId: T.id, date: T.start),
            ChallengeIds.photo(challengeId: T.id, week: 1), ChallengeIds.weighIn(challengeId: T.id, week: 1),
            ChallengeIds.settings(challengeId: T.id), ChallengeIds.nutrition(challengeId: UUID(), date: T.start),
        ]
        #expect(Set(ids).count == ids.count)
        #expect(T.nutrition(0).id == ChallengeIds.nutrition(challengeId: T.id, date: T.start))
    }

    // MARK: Weeks

    @Test("weeks run Monday to Sunday from the start; 17 weeks end on a Sunday")
    func weeks() {
        let challenge = T.challenge()
        #expect(challenge.lastDate == LocalDate(year: 2027, month: 3, day: 28)) // a Sunday, 118 days on
        #expect(challenge.lastDate.isoWeekday == 7)
        #expect(challenge.week(of: T.day(0)) == 1)
        #expect(challenge.week(of: T.day(6)) == 1)
        #expect(challenge.week(of: T.day(7)) == 2)
        #expect(challenge.week(of: T.day(118)) == 17)
        #expect(challenge.week(of: T.day(119)) == nil)
        #expect(challenge.week(of: T.day(-1)) == nil)
        #expect(challenge.currentWeek(today: T.day(-3)) == 1)
        #expect(challenge.currentWeek(today: T.day(200)) == 17)
        #expect(Challenge.nextMonday(onOrAfter: LocalDate(year: 2026, month: 11, day: 26)!) == T.start)
        #expect(Challenge.nextMonday(onOrAfter: T.start) == T.start)
        #expect(Challenge.monday(onOrBefore: T.day(9)) == T.day(7))
    }

    // MARK: Score

    /// (nutrition days, workout days, habit ticks, photo, weigh-in) → score and colour. 50×n/7 + 20×w/7 + 15×h/21 +
    /// 10 + 5, rounded: e.g. 5, 4, 12, photo → 35.71 + 11.43 + 8.57 + 10 = 65.71 → 66, yellow.
    @Test("the weekly compliance score and its colour", arguments: [
        (7, 7, 21, true, true, 100, ChallengeScoreColour.green),
        (0, 0, 0, false, false, 0, .gray),
        (5, 4, 12, true, false, 66, .yellow),
        (6, 5, 15, true, true, 83, .green),
        (6, 3, 14, true, false, 71, .yellow),
        (7, 0, 21, true, true, 80, .green),      // exactly 80: green
        (7, 4, 11, true, false, 79, .yellow),    // 79.29
        (5, 2, 7, false, true, 51, .gray),       // 51.43
        (6, 4, 10, false, false, 61, .yellow),   // 42.86 + 11.43 + 7.14 = 61.43
        (5, 4, 9, false, false, 54, .gray),      // 35.71 + 11.43 + 6.43 = 53.57
    ] as [(Int, Int, Int, Bool, Bool, Int, ChallengeScoreColour)])
    func score(nutrition: Int, workout: Int, ticks: Int, photo: Bool, weighIn: Bool, expected: Int, colour: ChallengeScoreColour) {
        // Week 2 (days 7–13), filled from its Monday; ticks spread 3 a day.
        var habitLogs: [ChallengeHabitsLog] = []
        var left = ticks
        for index in 7..<14 where left > 0 {
            habitLogs.append(T.habits(index, ticks: min(3, left)))
            left -= min(3, left)
        }
        let data = ChallengeData(
            challenge: T.challenge(),
            nutrition: (7..<(7 + nutrition)).map { T.nutrition($0) },
            workouts: (7..<(7 + workout)).map { T.workout($0, $0 % 2 == 0 ? .rest : .legs) },
            habits: habitLogs,
            photos: photo ? [T.photo(week: 2, takenOn: T.day(9))] : [],
            weighIns: weighIn ? [T.weighIn(week: 2, kg: 88)] : [])
        let week = data.score(week: 2, today: T.day(20))
        #expect(week.nutritionDays == nutrition)
        #expect(week.workoutDays == workout)
        #expect(week.habitTicks == ticks)
        #expect(week.score == expected)
        #expect(week.colour == colour)
        #expect(week.isComplete)
    }

    @Test("a skipped day is not done; a day with logged meals is, with or without a log that says so")
    func nutritionDone() {
        let meals = DailyTotals(kcal: 1_900, protein: 120, carbs: 210, fat: 55, mealCount: 3)
        let data = ChallengeData(
            challenge: T.challenge(),
            nutrition: [T.nutrition(0), T.nutrition(1, status: .skipped), T.nutrition(2, source: .meals), T.nutrition(3, source: .meals)],
            mealTotals: [T.day(1): meals, T.day(2): meals, T.day(4): meals])
        #expect(data.nutritionState(on: T.day(0)) == .done(kcal: 2_000, protein: 150, carbs: 200, fat: 60, fromMeals: false))
        #expect(data.nutritionState(on: T.day(1)) == .skipped)           // skipped wins over the meals
        #expect(data.nutritionState(on: T.day(2)) == .done(kcal: 1_900, protein: 120, carbs: 210, fat: 55, fromMeals: true))
        #expect(data.nutritionState(on: T.day(3)) == .pending)           // "use my meals" before any meal
        #expect(data.nutritionState(on: T.day(4)) == .done(kcal: 1_900, protein: 120, carbs: 210, fat: 55, fromMeals: true))
        #expect(data.nutritionState(on: T.day(5)) == .pending)
        // 3 done days of 7: 50 × 3/7 = 21.43 → 21.
        #expect(data.score(week: 1, today: T.day(6)).score == 21)
    }

    @Test("the current week counts the days so far; days ahead are not done yet")
    func currentWeek() {
        let data = ChallengeData(challenge: T.challenge(), nutrition: (0..<7).map { T.nutrition($0) })
        let wednesday = data.score(week: 1, today: T.day(2))
        #expect(wednesday.nutritionDays == 3)   // logs dated after today are not counted yet
        #expect(wednesday.daysElapsed == 3)
        #expect(!wednesday.isComplete)
        #expect(data.scores(today: T.day(9)).map(\.week) == [1, 2])
        #expect(data.scores(today: T.day(-1)).isEmpty)
    }

    // MARK: Streaks

    /// Pattern: one character per day from the start ("X" done); today is the pattern's last day.
    @Test("streaks per kind: from today, or from yesterday while today is open; a gap resets", arguments: [
        ("XXXX", 4, 4),
        ("XXX.", 3, 3),        // today not yet done: the streak still stands
        ("XX.XX.", 2, 2),
        ("XXX..X", 1, 3),
        ("XXXXX..", 0, 5),     // yesterday missed: 0
        (".......", 0, 0),
        ("X", 1, 1),
    ])
    func streaks(pattern: String, current: Int, longest: Int) {
        let today = T.day(pattern.count - 1)
        let days = T.indices(pattern)
        let data = ChallengeData(
            challenge: T.challenge(),
            nutrition: days.map { T.nutrition($0) },
            workouts: days.map { T.workout($0, .rest) },
            habits: days.map { T.habits($0, ticks: 3) } + (0..<pattern.count).filter { !days.contains($0) }.map { T.habits($0, ticks: 2) })
        for kind in ChallengeStreakKind.allCases {
            let streak = data.streak(kind, today: today)
            #expect(streak.current == current, "\(kind)")
            #expect(streak.longest == longest, "\(kind)")
        }
    }

    @Test("a skipped nutrition day ends the nutrition streak; two of three habits do not keep the habits streak")
    func streakBreakers() {
        let data = ChallengeData(
            challenge: T.challenge(),
            nutrition: [T.nutrition(0), T.nutrition(1, status: .skipped), T.nutrition(2), T.nutrition(3)],
            habits: [T.habits(2, ticks: 3), T.habits(3, ticks: 2)])
        #expect(data.streak(.nutrition, today: T.day(3)).current == 2)
        #expect(data.streak(.habits, today: T.day(3)).current == 1)   // today open (2 of 3): yesterday's 3 of 3 stands
        #expect(data.streak(.habits, today: T.day(4)).current == 0)   // yesterday 2 of 3: ended
        // Today open: yesterday's streak stands; today marked skipped: it ends now.
        #expect(data.streak(.nutrition, today: T.day(4)).current == 2)
        var skippedToday = data
        skippedToday.nutrition[T.day(4)] = T.nutrition(4, status: .skipped)
        #expect(skippedToday.streak(.nutrition, today: T.day(4)).current == 0)
        #expect(skippedToday.streak(.nutrition, today: T.day(4)).longest == 2)
    }

    // MARK: Late

    @Test("a photo or weigh-in after the week's Monday is late; on the Monday (or before) it is not", arguments: [
        (0, false), (-2, false), (1, true), (6, true),
    ])
    func late(offset: Int, late: Bool) {
        let challenge = T.challenge()
        let monday = challenge.monday(ofWeek: 3)
        #expect(T.photo(week: 3, takenOn: monday.adding(days: offset)).isLate(in: challenge) == late)
        #expect(T.weighIn(week: 3, kg: 88, loggedOn: monday.adding(days: offset)).isLate(in: challenge) == late)
    }

    // MARK: Goal pace

    /// 90 → 80 kg over 17 weeks (119 days). Straight: 90 − 10 × day / 119. MATADOR from the challenge's first day:
    /// maintenance days 0–13, 28–41, 56–69, 84–97, 112–118, diet days 14–27, 42–55, 70–83, 98–111 (56 days), so the
    /// line loses 10/56 kg a diet day and stays flat otherwise. MATADOR started 14 days before: diet days 0–13,
    /// 28–41, 56–69, 84–97, 112–118 (63 days).
    @Test("the goal pace: a straight line, or flat in MATADOR maintenance blocks", arguments: [
        (0, 0, 90.0), (7, 0, 89.4118), (42, 0, 86.4706), (119, 0, 80.0), (140, 0, 80.0), (-5, 0, 90.0),
        (14, 1, 90.0), (28, 1, 87.5), (35, 1, 87.5), (42, 1, 87.5), (56, 1, 85.0), (63, 1, 85.0), (77, 1, 83.75), (112, 1, 80.0), (119, 1, 80.0),
        (14, 2, 87.7778), (28, 2, 87.7778), (119, 2, 80.0),
    ] as [(Int, Int, Double)])
    func goalPace(day: Int, plan: Int, expected: Double) {
        let matador: MatadorCycle? = switch plan {
        case 1: MatadorCycle(planStart: T.start)
        case 2: MatadorCycle(planStart: T.start.adding(days: -14))
        default: nil
        }
        let line = ChallengeGoalPace(challenge: T.challenge(), startKg: 90, matador: matador)
        #expect(abs(line.expectedKg(on: T.day(day)) - expected) < 0.0001)
    }

    @Test("the pace line has a point at every Monday and the end")
    func weeklyPoints() {
        let points = ChallengeGoalPace(challenge: T.challenge(), startKg: 90, matador: MatadorCycle(planStart: T.start)).weeklyPoints
        #expect(points.count == 18)
        #expect(points.map { ($0.kg * 100).rounded() / 100 } == [90, 90, 90, 88.75, 87.5, 87.5, 87.5, 86.25, 85, 85, 85, 83.75, 82.5, 82.5, 82.5, 81.25, 80, 80])
    }

    /// Latest 86.0 kg on day 42: straight pace expects 86.47 (0.47 ahead; −0.67 kg/week against −0.59); MATADOR
    /// expects 87.5 (1.5 ahead). A gain from 60 to 65: 61.0 on day 21 against 60.88 → 0.12 ahead.
    @Test("current vs expected pace", arguments: [
        (90.0, 80.0, 86.0, 42, false, 0.4706, -0.6667, -0.5882),
        (90.0, 80.0, 86.0, 42, true, 1.5, -0.6667, -0.4167),
        (90.0, 80.0, 87.0, 42, false, -0.5294, -0.5, -0.5882),
        (60.0, 65.0, 61.0, 21, false, 0.1176, 0.3333, 0.2941),
    ] as [(Double, Double, Double, Int, Bool, Double, Double, Double)])
    func pace(start: Double, goal: Double, latest: Double, day: Int, matador: Bool, ahead: Double, actual: Double, expected: Double) throws {
        let data = ChallengeData(challenge: T.challenge(startKg: start, goalKg: goal), weights: [T.day(day): latest])
        let pace = try #require(data.pace(today: T.day(day + 2), matador: matador ? MatadorCycle(planStart: T.start) : nil))
        #expect(pace.currentKg == latest)
        #expect(abs(pace.aheadKg - ahead) < 0.0001)
        #expect(abs(pace.actualPerWeekKg - actual) < 0.0001)
        #expect(abs(pace.expectedPerWeekKg - expected) < 0.0001)
        #expect(pace.onPace == (ahead >= -0.05))
    }

    @Test("the start weight: as set, else the first weigh-in, else the weight log; the latest weight prefers a weigh-in on a tie")
    func startAndLatest() {
        var data = ChallengeData(challenge: T.challenge(startKg: nil), weighIns: [T.weighIn(week: 2, kg: 89), T.weighIn(week: 1, kg: 91)],
                                 weights: [T.day(-2): 92, T.day(7): 88.8, T.day(8): 88.5])
        #expect(data.startKg == 91)
        #expect(data.latestWeight(today: T.day(7))!.kg == 89)        // weigh-in and log both on day 7: the weigh-in
        #expect(data.latestWeight(today: T.day(9))!.kg == 88.5)
        #expect(data.weekWeight(2)!.fromWeighIn)
        data.weighIns = [:]
        #expect(data.startKg == 92)                                    // the log's latest in the 7 days before
        #expect(data.weekWeight(2)! == (88.5, T.day(8), false))
        #expect(data.weekWeight(3) == nil)
    }

    // MARK: Macro averages

    /// Week 1: typed 2,000 / 150 / 200 / 60 and 1,800 / 130 / 180 / (no fat), skipped, meals 2,200 / 120 / 250 / 70,
    /// pending → over 3 days: 2,000 kcal, 133.3 g protein, 210 g carbs; fat over its 2 days: 65 g.
    @Test("weekly macro averages over the logged days")
    func macroAverages() {
        let data = ChallengeData(
            challenge: T.challenge(),
            nutrition: [T.nutrition(0), T.nutrition(1, kcal: 1_800, protein: 130, carbs: 180, fat: nil), T.nutrition(2, status: .skipped)],
            mealTotals: [T.day(3): DailyTotals(kcal: 2_200, protein: 120, carbs: 250, fat: 70, mealCount: 2)])
        let week = data.macroAverage(week: 1, today: T.day(6))
        #expect(week.days == 3)
        #expect(week.kcal == 2_000)
        #expect(abs(week.protein! - 133.3333) < 0.001)
        #expect(week.carbs == 210)
        #expect(week.fat == 65)
        let empty = data.macroAverage(week: 2, today: T.day(13))
        #expect(empty.days == 0 && empty.kcal == nil)
        #expect(data.macroAverages(today: T.day(8)).count == 2)
    }

    // MARK: Reminders

    @Test("Smart Rules: skip what is done, nothing in quiet hours, at most 3 a day (the week's photo and weigh-in first)", arguments: [
        ("Monday", 0, [], true, ["10:00 photo", "10:15 weighIn", "20:30 nutrition"]),
        ("Monday, photo done", 0, ["photo"], true, ["10:15 weighIn", "18:00 workout", "20:30 nutrition"]),
        ("Tuesday", 1, [], true, ["18:00 workout", "20:30 nutrition", "21:00 habits"]),
        ("Tuesday, nutrition done", 1, ["nutrition"], true, ["18:00 workout", "21:00 habits"]),
        ("Monday without Smart Rules", 0, ["photo"], false, ["10:00 photo", "10:15 weighIn", "18:00 workout", "20:30 nutrition", "21:00 habits"]),
    ] as [(String, Int, [String], Bool, [String])])
    func reminders(_ name: String, day: Int, done: [String], smart: Bool, expected: [String]) {
        let settings = ChallengeSettings(challengeId: T.id, smartRules: smart, updatedAt: T.now)
        let due = ChallengeReminderPlan.due(on: T.day(day), settings: settings, done: Set(done.compactMap(ChallengeReminderKind.init(rawValue:))))
        #expect(due.map { "\($0.time) \($0.kind.rawValue)" } == expected, "\(name)")
    }

    @Test("a reminder moved into quiet hours is not sent; a disabled one never")
    func quietHours() {
        var settings = ChallengeSettings(challengeId: T.id, updatedAt: T.now)
        settings.reminders = [ChallengeReminder(kind: .habits, time: JournalTime(hour: 22, minute: 30)),
                              ChallengeReminder(kind: .workout, time: JournalTime(hour: 6, minute: 59)),
                              ChallengeReminder(kind: .nutrition, enabled: false)]
        let due = ChallengeReminderPlan.due(on: T.day(1), settings: settings, done: [])
        #expect(due.isEmpty)
        #expect(ChallengeReminderPlan.isQuiet(JournalTime(hour: 7, minute: 0)!) == false)
        #expect(ChallengeReminderPlan.isQuiet(JournalTime(hour: 21, minute: 59)!) == false)
        #expect(ChallengeReminderPlan.isQuiet(JournalTime(hour: 22, minute: 0)!))
    }

    // MARK: Validation

    @Test("rows keep their rules, with the catalog's messages")
    func validation() {
        #expect(throws: ChallengeInvalid(errors: ["startDate": "A challenge starts on a Monday."])) {
            try Challenge(startDate: T.day(1), goalWeightKg: 80, createdAt: T.now).validate()
        }
        #expect(throws: ChallengeInvalid(errors: ["goalWeightKg": "Weight must be between 20-500 kg", "weeks": "A challenge lasts 1 to 52 weeks."])) {
            try Challenge(startDate: T.start, weeks: 60, goalWeightKg: 10, createdAt: T.now).validate()
        }
        var typed = T.nutrition(0)
        typed.kcal = nil
        #expect(throws: ChallengeInvalid(errors: ["kcal": "Enter the day's calories, or mark the day as skipped."])) { try typed.validate() }
        var skipped = T.nutrition(0, status: .skipped)
        skipped.kcal = 500
        #expect(throws: ChallengeInvalid(errors: ["kcal": "A skipped day, or one taken from your logged meals, has no typed totals."])) {
            try skipped.validate()
        }
        var moved = T.nutrition(0)
        moved.date = T.day(1)   // the id is still day 0's: a second row for day 1 could exist
        #expect(throws: ChallengeInvalid(errors: ["id": "This log's id does not belong to its day or week."])) { try moved.validate() }
        #expect(throws: ChallengeInvalid.self) { try T.weighIn(week: 1, kg: 88, waist: 400).validate() }
        #expect(throws: ChallengeInvalid.self) { try T.workout(0, minutes: 0).validate() }
        #expect(throws: ChallengeInvalid.self) { try T.photo(week: 53).validate() }
        #expect(throws: Never.self) { try T.nutrition(0).validate() }
        #expect(throws: Never.self) { try T.weighIn(week: 17, kg: 80.4, waist: 84).validate() }
    }

    @Test("the row coding keeps member names and plain dates")
    func coding() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        encoder.dateEncodingStrategy = .iso8601
        let text = String(decoding: try encoder.encode(T.workout(2, .plyoAbs, minutes: 30)), as: UTF8.self)
        #expect(text.contains("\"date\":\"2026-12-02\""))
        #expect(text.contains("\"type\":\"plyoAbs\""))
        #expect(text.contains("\"minutes\":30"))
    }
}
