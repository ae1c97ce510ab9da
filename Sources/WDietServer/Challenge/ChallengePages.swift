import Foundation
import Hummingbird
import Mustache
import WDietCore
import WDietStore

/// The Challenge's web screens (seed 003, issue 20 item 3; docs/challenge.md "Screens"), server-rendered under
/// `/challenge…` with their own tab bar (`ChallengeFrame`): Home, Log, the Weekly Check-In, Settings, starting a
/// challenge and the app lock's PIN page. (Progress and the summary are `ChallengeProgressPages`.) Forms post to the
/// server and redirect (they work without script); `challenge.js` enhances them and runs the app lock. Saves go
/// through `ChallengeService`, the API's use cases.
struct ChallengePages: Sendable {
    let services: AppServices
    let accounts: AccountService

    var service: ChallengeService { ChallengeService(services: services) }

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/challenge") { request, context in try await home(request, context) }
        group.get("/challenge/start") { request, context in try await startPage(request, context) }
        group.post("/challenge/start") { request, context in try await start(request, context) }
        group.get("/challenge/lock") { request, context in try await lock(request, context) }
        group.post("/challenge/lock") { _, context in try await unlock(context) }
        registerLog(on: group)
        registerCheckIn(on: group)
        registerSettings(on: group)
    }

    func chrome(_ context: WebUserContext) -> PageChrome { PageChrome(context: context) }

    /// The frame from settings already read (Home reads them with the challenge's data).
    func frame(_ tab: ChallengeFrame.Tab, settings: ChallengeSettings?, userId: UUID) async throws -> ChallengeFrame {
        guard let settings, settings.appLock else { return ChallengeFrame(tab: tab) }
        let hasPin = try await ChallengeAppLockAPI.store(services).appLock(userId: userId) != nil
        return ChallengeFrame(tab: tab, lockAfterMinutes: hasPin ? settings.lockAfterMinutes : nil)
    }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location, .cacheControl: "no-store"])
    }

    // MARK: - Home

    /// Home's values answer their template by name (`MustacheParent`, no reflection: the page is the one opened
    /// most, and `Mirror` was the largest part of its rendering; `ChallengeTemplateValueTests`).
    struct HomePage: Sendable, MustacheParent {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var empty: ChallengeEmpty?
        var upcoming: String?
        var subtitle: String?
        var notice: String?
        var checklist: Checklist?
        var thisWeek: ThisWeek?
        var streaks: [ChallengeStreakValue]
        var score: ChallengeScoreValue?
        var finished: Bool

        func child(named name: String) -> Any? {
            switch name {
            case "chrome": chrome
            case "frame": frame
            case "title": title
            case "empty": empty
            case "upcoming": upcoming
            case "subtitle": subtitle
            case "notice": notice
            case "checklist": checklist
            case "thisWeek": thisWeek
            case "streaks": streaks
            case "score": score
            case "finished": finished
            default: nil
            }
        }
    }

    struct Checklist: Sendable, MustacheParent {
        var date: String
        var nutrition: ChallengeState
        var workout: ChallengeState
        var habits: [HabitToggle]
        var csrf: String

        func child(named name: String) -> Any? {
            switch name {
            case "date": date
            case "nutrition": nutrition
            case "workout": workout
            case "habits": habits
            case "csrf": csrf
            default: nil
            }
        }
    }

    struct HabitToggle: Sendable, MustacheParent {
        var name: String
        var label: String
        var icon: String
        var on: Bool

        func child(named name: String) -> Any? {
            switch name {
            case "name": self.name
            case "label": label
            case "icon": icon
            case "on": on
            default: nil
            }
        }
    }

    struct ThisWeek: Sendable, MustacheParent {
        var week: Int
        var heading: String
        var photo: ChallengeState
        var weighIn: ChallengeState
        var checkInHref: String

        func child(named name: String) -> Any? {
            switch name {
            case "week": week
            case "heading": heading
            case "photo": photo
            case "weighIn": weighIn
            case "checkInHref": checkInHref
            default: nil
            }
        }
    }

    func home(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let userId = context.userId
        let title = Strings.current("challenge.homeTitle")
        let snapshot = try await service.snapshot(userId: userId, dataVersion: context.userDataVersion)
        guard let stored = snapshot.current, let data = snapshot.read?.data else {
            let page = HomePage(
                chrome: chrome(context), frame: ChallengeFrame(tab: .home), title: title,
                empty: ChallengeEmpty(icon: "flag", prompt: Strings.current("challenge.homeEmptyPrompt"),
                                      actionHref: "/challenge/start", actionLabel: Strings.current("challenge.startAction")),
                streaks: [], finished: false)
            return try WebTemplates.page("challenge-home", page)
        }
        let challenge = stored.value
        let today = snapshot.context(now: services.now()).today
        let frame = try await frame(.home, settings: data.settings, userId: userId)
        var page = HomePage(chrome: chrome(context), frame: frame, title: title, streaks: [], finished: today > challenge.lastDate)
        page.notice = Self.notice(request)
        if today < challenge.startDate {
            page.upcoming = Strings.current("challenge.homeUpcoming", [
                "date": Strings.current.date(challenge.startDate, .long),
                "days": String(today.days(until: challenge.startDate)),
            ])
            return try WebTemplates.page("challenge-home", page)
        }
        let week = challenge.currentWeek(today: today)
        page.subtitle = page.finished
            ? Strings.current("challenge.homeFinished", ["weeks": String(challenge.weeks)])
            : Strings.current("challenge.homeWeekDay", [
                "week": String(week), "weeks": String(challenge.weeks), "day": String(challenge.startDate.days(until: today) + 1),
            ])
        if !page.finished {
            page.checklist = Checklist(
                date: today.iso, nutrition: Self.nutritionState(data, on: today), workout: Self.workoutState(data, on: today),
                habits: Self.habitToggles(data.habits[today]), csrf: page.chrome.csrfToken)
        }
        page.thisWeek = ThisWeek(
            week: week, heading: Strings.current("challenge.homeThisWeek", ["week": String(week)]),
            photo: Self.photoState(data.photos[week], challenge: challenge),
            weighIn: Self.weighInState(data.weighIns[week], challenge: challenge),
            checkInHref: "/challenge/check-in?week=\(week)")
        page.streaks = data.streaks(today: today).map(Self.streak)
        page.score = ChallengeScoreValue(data.score(week: week, today: today))
        return try WebTemplates.page("challenge-home", page)
    }

    /// The calm note after a save (`?saved=…`).
    static func notice(_ request: Request) -> String? {
        switch request.uri.queryParameters.get("saved") {
        case "started": Strings.current("challenge.savedStarted")
        case "nutrition": Strings.current("challenge.savedNutrition")
        case "workout": Strings.current("challenge.savedWorkout")
        case "habits": Strings.current("challenge.savedHabits")
        case "photo": Strings.current("challenge.savedPhoto")
        case "weighIn": Strings.current("challenge.savedWeighIn")
        case "settings": Strings.current("challenge.savedSettings")
        case "pin": Strings.current("challenge.savedPin")
        case "pinRemoved": Strings.current("challenge.savedPinRemoved")
        case "deleted": Strings.current("challenge.savedDeleted")
        case "demo": Strings.current("challengeProgress.savedDemo")
        case "demoRemoved": Strings.current("challengeProgress.savedDemoRemoved")
        default: nil
        }
    }

    static func nutritionState(_ data: ChallengeData, on date: LocalDate) -> ChallengeState {
        switch data.nutritionState(on: date) {
        case .done(let kcal, _, _, _, let fromMeals):
            let detail = kcal.map { Strings.current("challenge.kcalValue", ["kcal": Strings.current.number(Int($0.rounded()))]) }
            return ChallengeState(.done, text: Strings.current(fromMeals ? "challenge.stateFromMeals" : "challenge.stateDone"), detail: detail)
        case .skipped: return ChallengeState(.skipped, text: Strings.current("challenge.stateSkipped"))
        case .pending: return ChallengeState(.pending, text: Strings.current("challenge.statePending"))
        }
    }

    static func workoutState(_ data: ChallengeData, on date: LocalDate) -> ChallengeState {
        guard let log = data.workouts[date] else { return ChallengeState(.pending, text: Strings.current("challenge.statePending")) }
        let detail = log.minutes.map { Strings.current("challenge.minutesValue", ["minutes": String($0)]) }
        return ChallengeState(.done, text: log.type.label, detail: detail)
    }

    static func habitToggles(_ log: ChallengeHabitsLog?) -> [HabitToggle] {
        [
            HabitToggle(name: "water", label: Strings.current("challenge.habitWater"), icon: "droplet", on: log?.water ?? false),
            HabitToggle(name: "steps", label: Strings.current("challenge.habitSteps"), icon: "trending-up", on: log?.steps ?? false),
            HabitToggle(name: "sleep", label: Strings.current("challenge.habitSleep"), icon: "moon", on: log?.sleep ?? false),
        ]
    }

    static func photoState(_ photo: ChallengePhoto?, challenge: Challenge) -> ChallengeState {
        guard let photo else { return ChallengeState(.pending, text: Strings.current("challenge.statePending")) }
        let late = photo.takenOn > challenge.monday(ofWeek: photo.week)
        return ChallengeState(late ? .late : .done, text: Strings.current(late ? "challenge.lateUpload" : "challenge.stateDone"),
                              detail: Strings.current.date(photo.takenOn, .weekdayDayMonth))
    }

    static func weighInState(_ weighIn: ChallengeWeighIn?, challenge: Challenge) -> ChallengeState {
        guard let weighIn else { return ChallengeState(.pending, text: Strings.current("challenge.statePending")) }
        let late = weighIn.loggedOn > challenge.monday(ofWeek: weighIn.week)
        return ChallengeState(late ? .late : .done, text: late ? Strings.current("challenge.lateWeighIn") : Strings.current("challenge.stateDone"),
                              detail: ChallengeFormat.weight(weighIn.kg, unit: challenge.weightUnit))
    }

    static func streak(_ streak: ChallengeStreak) -> ChallengeStreakValue {
        let (label, icon) = switch streak.kind {
        case .nutrition: (Strings.current("challenge.streakNutrition"), "pie-chart")
        case .workout: (Strings.current("challenge.streakWorkout"), "activity")
        case .habits: (Strings.current("challenge.streakHabits"), "check-circle")
        }
        return ChallengeStreakValue(label: label, text: Strings.current("challenge.streakDays", count: streak.current), icon: icon)
    }

    // MARK: - Start

    struct StartPage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var mondays: [OnboardingPages.Option]
        var goalWeight: String
        var startWeight: String
        var unitKg: Bool
        var unitLb: Bool
        var weeks: String
        var errors: [String: String]
        var goalError: String?
        var startWeightError: String?
        var dateError: String?
        var formError: String?
        var hasChallenge: Bool
    }

    /// The Mondays offered: four back (a challenge begun last week is entered late) and eight ahead; the next one chosen.
    static func mondays(today: LocalDate, chosen: String?) -> [OnboardingPages.Option] {
        let next = Challenge.nextMonday(onOrAfter: today)
        let chosenDate = chosen.flatMap(LocalDate.init(iso:)) ?? next
        return (-4...8).map { offset in
            let day = next.adding(days: offset * 7)
            var label = Strings.current.date(day, .long)
            if day == next { label = Strings.current("challenge.startNextMonday", ["date": label]) }
            return OnboardingPages.Option(value: day.iso, label: label, selected: day == chosenDate)
        }
    }

    func startPage(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let userId = context.userId
        let ctx = try await service.context(userId: userId)
        let latest = try await services.weights.latestWeight(userId: userId)?.entry.kg
        let unit = ctx.profile?.weightUnit ?? .kg
        let page = StartPage(
            chrome: chrome(context), frame: ChallengeFrame(tab: .home), title: Strings.current("challenge.startTitle"),
            mondays: Self.mondays(today: ctx.today, chosen: nil), goalWeight: "",
            startWeight: latest.map { ChallengeFormat.weightField($0, unit: unit) } ?? "",
            unitKg: unit == .kg, unitLb: unit == .lb, weeks: String(Challenge.defaultWeeks), errors: [:],
            hasChallenge: try await service.store.current(userId: userId) != nil)
        return try WebTemplates.page("challenge-start", page)
    }

    func start(_ request: Request, _ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let userId = context.userId
        var body = ChallengeBody()
        body.startDate = .value(form.text("startDate"))
        body.weeks = .value(NumberInput(NumericInput(text: form.text("weeks"))))
        body.goalWeight = .value(NumberInput(NumericInput(text: form.text("goalWeight"))))
        body.startWeight = form.text("startWeight").isEmpty ? .absent : .value(NumberInput(NumericInput(text: form.text("startWeight"))))
        body.weightUnit = .value(form.text("weightUnit") == "lb" ? "lb" : "kg")
        do {
            _ = try await service.start(body, userId: userId)
            return Self.redirect("/challenge?saved=started")
        } catch let invalid as InvalidInput {
            let ctx = try await service.context(userId: userId)
            let page = StartPage(
                chrome: chrome(context), frame: ChallengeFrame(tab: .home), title: Strings.current("challenge.startTitle"),
                mondays: Self.mondays(today: ctx.today, chosen: form.text("startDate")), goalWeight: form.text("goalWeight"),
                startWeight: form.text("startWeight"), unitKg: form.text("weightUnit") != "lb", unitLb: form.text("weightUnit") == "lb",
                weeks: form.text("weeks"), errors: invalid.fields, goalError: invalid.fields["goalWeight"],
                startWeightError: invalid.fields["startWeight"], dateError: invalid.fields["startDate"],
                formError: Strings.current("challenge.formErrors"),
                hasChallenge: try await service.store.current(userId: userId) != nil)
            return try WebTemplates.page("challenge-start", page, status: .unprocessableContent)
        }
    }

    // MARK: - App lock

    struct LockPage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var next: String
        var error: String?
    }

    /// The page to go on to after the PIN: a Challenge path only (never the lock page itself or another site).
    static func lockNext(_ asked: String?) -> String {
        guard let asked, asked.hasPrefix("/challenge"), !asked.hasPrefix("/challenge/lock"), !asked.contains("//") else { return "/challenge" }
        return asked
    }

    /// The PIN page: `challenge.js` sends the PIN to `POST /api/v1/challenge/app-lock/verify` and goes on to `next`
    /// (a Challenge path only), shows the attempts left on a wrong one, and the sign-in page after the fifth. Without
    /// script the form posts to `unlock`, which answers the same way with a page.
    func lock(_ request: Request, _ context: WebUserContext) async throws -> Response {
        try lockPage(context, next: Self.lockNext(request.uri.queryParameters.get("next")), error: nil)
    }

    func lockPage(_ context: WebUserContext, next: String, error: String?) throws -> Response {
        let page = LockPage(chrome: chrome(context), frame: ChallengeFrame(tab: .none), title: Strings.current("challenge.lockTitle"),
                            next: next, error: error)
        return try WebTemplates.page("challenge-lock", page, status: error == nil ? .ok : .unprocessableContent)
    }

    /// The PIN page's form without script (a POST, so the PIN is never in an address): the right PIN goes on to
    /// `next`, a wrong one shows the page again with the attempts left (422), the fifth wrong one in a row ends
    /// every session and goes to the sign-in page, as the API's verify does.
    func unlock(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let next = Self.lockNext(form.text("next"))
        let pin = form.text("pin")
        guard (4...6).contains(pin.count), pin.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return try lockPage(context, next: next, error: Strings.current("challenge.pinFormat"))
        }
        switch try await ChallengeAppLockAPI(services: services, accounts: accounts).check(pin: pin, userId: context.userId) {
        case .right, .notSet:
            return Self.redirect(next)
        case .lockedOut:
            return Self.redirect("/login")
        case .wrong(let left):
            return try lockPage(context, next: next, error: Strings.current("challenge.lockAttemptsLeft", count: left))
        }
    }
}
