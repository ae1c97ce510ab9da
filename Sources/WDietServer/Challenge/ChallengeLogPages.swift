import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// Log (003 "Log Screen"): a day's nutrition (large numeric inputs, yesterday's totals ghosted as placeholders,
/// "Mark as Skipped", or the day's logged meals), workout (the segmented type, duration, notes, "Use Push Template")
/// and habits, each a plain form (POST, then back to the day) through `ChallengeService`.
extension ChallengePages {
    func registerLog(on group: RouterGroup<WebUserContext>) {
        group.get("/challenge/log") { request, context in
            try await logPage(context, date: request.uri.queryParameters.get("date"), notice: Self.notice(request))
        }
        group.post("/challenge/log/nutrition") { _, context in try await saveNutrition(context) }
        group.post("/challenge/log/workout") { _, context in try await saveWorkout(context) }
        group.post("/challenge/log/habits") { _, context in try await saveHabits(context) }
    }

    struct LogPage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var empty: ChallengeEmpty?
        var notice: String?
        var day: LogDay?
    }

    struct LogDay: Sendable {
        var date: String
        var dayLabel: String
        var previousHref: String?
        var nextHref: String?
        var todayHref: String?
        var min: String
        var max: String
        var nutritionState: ChallengeState
        var kcal: String
        var protein: String
        var carbs: String
        var fat: String
        var notes: String
        var ghostKcal: String
        var ghostProtein: String
        var ghostCarbs: String
        var ghostFat: String
        var hasGhost: Bool
        var mealsLabel: String?
        var nutritionErrors: [String: String]
        var kcalError: String?
        var nutritionError: String?
        var workoutState: ChallengeState
        var workoutTypes: [WorkoutOption]
        var minutes: String
        var workoutNotes: String
        var templateType: String
        var templateLabel: String
        var workoutError: String?
        var habits: [HabitToggle]
        var editing: Bool
    }

    struct WorkoutOption: Sendable {
        var value: String
        var label: String
        var checked: Bool
        var templateLabel: String
    }

    /// The day asked for (`?date=`), else today; only days of the challenge up to today.
    static func logDate(_ text: String?, challenge: Challenge, today: LocalDate) throws -> LocalDate {
        let last = min(today, challenge.lastDate)
        guard let text, !text.isEmpty else { return max(min(today, last), challenge.startDate) }
        guard let date = LocalDate(iso: text), challenge.contains(date), date <= today else {
            throw APIError.badRequest(Strings.current("challenge.outsideChallenge", [
                "first": Strings.current.date(challenge.startDate), "last": Strings.current.date(last),
            ]))
        }
        return date
    }

    func logPage(_ context: WebUserContext, date asked: String?, notice: String? = nil, invalid: (kind: String, fields: [String: String], form: WebForm)? = nil) async throws -> Response {
        let userId = context.userId
        let title = Strings.current("challenge.logTitle")
        guard let stored = try await service.store.current(userId: userId) else {
            return try WebTemplates.page("challenge-log", LogPage(chrome: chrome(context), frame: ChallengeFrame(tab: .log), title: title,
                                                               empty: Self.startEmpty))
        }
        let challenge = stored.value
        let today = try await service.context(userId: userId).today
        let data = try await service.data(challenge, userId: userId)
        let frame = try await frame(.log, settings: data.settings, userId: userId)
        if today < challenge.startDate {
            let empty = ChallengeEmpty(icon: "calendar", prompt: Strings.current("challenge.homeUpcoming", [
                "date": Strings.current.date(challenge.startDate, .long), "days": String(today.days(until: challenge.startDate)),
            ]))
            return try WebTemplates.page("challenge-log", LogPage(chrome: chrome(context), frame: frame, title: title, empty: empty))
        }
        let date = try Self.logDate(asked, challenge: challenge, today: today)
        let day = Self.logDay(date, data: data, today: today, invalid: invalid)
        var page = LogPage(chrome: chrome(context), frame: frame, title: title, day: day)
        page.notice = notice
        return try WebTemplates.page("challenge-log", page, status: invalid == nil ? .ok : .unprocessableContent)
    }

    static var startEmpty: ChallengeEmpty {
        ChallengeEmpty(icon: "flag", prompt: Strings.current("challenge.homeEmptyPrompt"), actionHref: "/challenge/start",
                       actionLabel: Strings.current("challenge.startAction"))
    }

    static func logDay(_ date: LocalDate, data: ChallengeData, today: LocalDate, invalid: (kind: String, fields: [String: String], form: WebForm)?) -> LogDay {
        let challenge = data.challenge
        let strings = Strings.current
        let log = data.nutrition[date]
        let typed = log.flatMap { $0.status == .logged && $0.source == .typed ? $0 : nil }
        let yesterday = date.adding(days: -1)
        var ghost: (String, String, String, String) = ("", "", "", "")
        if challenge.contains(yesterday), case .done(let kcal, let protein, let carbs, let fat, _) = data.nutritionState(on: yesterday) {
            ghost = (ChallengeFormat.number(kcal.map { $0.rounded() }), ChallengeFormat.number(protein), ChallengeFormat.number(carbs), ChallengeFormat.number(fat))
        }
        let meals = data.mealTotals[date].flatMap { $0.mealCount > 0 ? $0 : nil }
        let workout = data.workouts[date]
        let chosenType = workout?.type ?? .push
        let dayLabel = date == today ? strings("challenge.logToday", ["date": strings.date(date, .weekdayDayMonth)])
            : strings.date(date, .long)
        var day = LogDay(
            date: date.iso, dayLabel: dayLabel,
            previousHref: date > challenge.startDate ? "/challenge/log?date=\(date.adding(days: -1).iso)" : nil,
            nextHref: date < min(today, challenge.lastDate) ? "/challenge/log?date=\(date.adding(days: 1).iso)" : nil,
            todayHref: date != today && challenge.contains(today) ? "/challenge/log" : nil,
            min: challenge.startDate.iso, max: min(today, challenge.lastDate).iso,
            nutritionState: nutritionState(data, on: date),
            kcal: ChallengeFormat.number(typed?.kcal), protein: ChallengeFormat.number(typed?.protein),
            carbs: ChallengeFormat.number(typed?.carbs), fat: ChallengeFormat.number(typed?.fat), notes: log?.notes ?? "",
            ghostKcal: ghost.0, ghostProtein: ghost.1, ghostCarbs: ghost.2, ghostFat: ghost.3, hasGhost: !ghost.0.isEmpty,
            mealsLabel: meals.map { strings("challenge.useMeals", ["kcal": strings.number(Int($0.kcal.rounded()))]) },
            nutritionErrors: [:],
            workoutState: workoutState(data, on: date),
            workoutTypes: ChallengeWorkoutType.allCases.map {
                WorkoutOption(value: $0.rawValue, label: $0.label, checked: $0 == chosenType,
                              templateLabel: strings("challenge.useTemplate", ["type": $0.label]))
            },
            minutes: workout?.minutes.map(String.init) ?? "", workoutNotes: workout?.notes ?? "",
            templateType: chosenType.rawValue, templateLabel: strings("challenge.useTemplate", ["type": chosenType.label]),
            habits: habitToggles(data.habits[date]), editing: log != nil || workout != nil)
        if let invalid {
            let form = invalid.form
            if invalid.kind == "nutrition" {
                day.kcal = form.text("kcal"); day.protein = form.text("protein"); day.carbs = form.text("carbs"); day.fat = form.text("fat")
                day.notes = form.text("notes")
                day.nutritionErrors = invalid.fields
                day.kcalError = invalid.fields["kcal"]
                day.nutritionError = invalid.fields.filter { $0.key != "kcal" }.values.sorted().first
            } else if invalid.kind == "workout" {
                day.minutes = form.text("minutes"); day.workoutNotes = form.text("notes")
                day.workoutError = invalid.fields.values.sorted().joined(separator: " ")
            }
        }
        return day
    }

    static func number(_ form: WebForm, _ name: String) -> JSONField<NumberInput> {
        let text = form.text(name)
        return text.isEmpty ? .absent : .value(NumberInput(NumericInput(text: text)))
    }

    func saveNutrition(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let date = form.text("date")
        guard let day = LocalDate(iso: date) else { throw APIError.badRequest(Strings.current("api.date")) }
        var body = ChallengeNutritionBody()
        if form.text("status") == "skipped" {
            body.status = .value("skipped")
        } else if form.text("source") == "meals" {
            body.source = .value("meals")
        } else {
            body.kcal = Self.number(form, "kcal"); body.protein = Self.number(form, "protein")
            body.carbs = Self.number(form, "carbs"); body.fat = Self.number(form, "fat")
            body.notes = .value(form.text("notes"))
        }
        do {
            _ = try await service.saveNutrition(body, date: day, userId: context.userId)
        } catch let invalid as InvalidInput {
            return try await logPage(context, date: date, invalid: ("nutrition", invalid.fields, form))
        }
        return Self.redirect("/challenge/log?date=\(day.iso)&saved=nutrition#nutrition")
    }

    func saveWorkout(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let date = form.text("date")
        guard let day = LocalDate(iso: date) else { throw APIError.badRequest(Strings.current("api.date")) }
        var body = ChallengeWorkoutBody()
        if !form.text("template").isEmpty {
            body.type = .value(form.text("template"))
            body.useTemplate = .value(true)
        } else {
            body.type = .value(form.text("type"))
            body.minutes = Self.number(form, "minutes")
            body.notes = .value(form.text("notes"))
        }
        do {
            _ = try await service.saveWorkout(body, date: day, userId: context.userId)
        } catch let invalid as InvalidInput {
            return try await logPage(context, date: date, invalid: ("workout", invalid.fields, form))
        }
        return Self.redirect("/challenge/log?date=\(day.iso)&saved=workout#workout")
    }

    func saveHabits(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        guard let day = LocalDate(iso: form.text("date")) else { throw APIError.badRequest(Strings.current("api.date")) }
        var body = ChallengeHabitsBody()
        for (name, keyPath) in [("water", \ChallengeHabitsBody.water), ("steps", \.steps), ("sleep", \.sleep)] where form[name] != nil {
            body[keyPath: keyPath] = .value(form.text(name) == "on")
        }
        do {
            _ = try await service.saveHabits(body, date: day, userId: context.userId)
        } catch let invalid as InvalidInput {
            throw APIError.badRequest(invalid.message)
        }
        if form.text("back") == "home" { return Self.redirect("/challenge?saved=habits#ch-checklist") }
        return Self.redirect("/challenge/log?date=\(day.iso)&saved=habits#habits")
    }
}
