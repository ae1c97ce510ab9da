import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// Challenge Settings (003 "Settings Screen", an iOS-style list): the challenge (start date, goal weight, units,
/// weeks), the reminders with their times and Smart Rules (stored for the reminders work), the app lock (a PIN of
/// 4–6 digits, kept only as a bcrypt hash on the server; how long away before it asks), the theme (w-diet's
/// Appearance), and the data (export). Plain forms, each saved and back to Settings.
extension ChallengePages {
    func registerSettings(on group: RouterGroup<WebUserContext>) {
        group.get("/challenge/settings") { request, context in try await settingsPage(context, notice: Self.notice(request)) }
        group.post("/challenge/settings/challenge") { _, context in try await saveChallenge(context) }
        group.post("/challenge/settings/reminders") { _, context in try await saveReminders(context) }
        group.post("/challenge/settings/app-lock") { _, context in try await setAppLock(context) }
        group.post("/challenge/settings/app-lock/remove") { _, context in try await removeAppLock(context) }
        group.post("/challenge/settings/delete") { _, context in try await deleteChallenge(context) }
    }

    struct SettingsPage: Sendable {
        var chrome: PageChrome
        var frame: ChallengeFrame
        var title: String
        var empty: ChallengeEmpty?
        var notice: String?
        var settings: SettingsValues?
        /// The running challenge is the demo ("Remove Demo Data" is offered; "Seed Demo Data" only without a challenge).
        var isDemo = false
    }

    struct SettingsValues: Sendable {
        var mondays: [OnboardingPages.Option]
        var goalWeight: String
        var unitKg: Bool
        var unitLb: Bool
        var weeks: String
        var challengeError: String?
        var reminders: [ReminderValue]
        var smartRules: Bool
        var remindersError: String?
        var pinSet: Bool
        var lockOn: Bool
        var lockMinutes: [OnboardingPages.Option]
        var pinError: String?
        var deleteError: String?
    }

    struct ReminderValue: Sendable {
        var kind: String
        var label: String
        var when: String
        var time: String
        var enabled: Bool
    }

    func settingsPage(_ context: WebUserContext, notice: String?, errors: [String: String] = [:], form: WebForm? = nil) async throws -> Response {
        let userId = context.userId
        let title = Strings.current("challenge.settingsTitle")
        guard let stored = try await service.store.current(userId: userId) else {
            return try WebTemplates.page("challenge-settings", SettingsPage(chrome: chrome(context), frame: ChallengeFrame(tab: .settings), title: title,
                                                                            empty: Self.startEmpty, notice: notice))
        }
        let challenge = stored.value
        let today = try await service.context(userId: userId).today
        let (settings, _) = try await service.settings(of: challenge, userId: userId)
        let frame = try await frame(.settings, settings: settings, userId: userId)
        let pinSet = try await ChallengeAppLockAPI.store(services).appLock(userId: userId) != nil
        var mondays = Self.mondays(today: today, chosen: challenge.startDate.iso)
        if !mondays.contains(where: { $0.selected }) {
            mondays.insert(OnboardingPages.Option(value: challenge.startDate.iso, label: Strings.current.date(challenge.startDate, .long), selected: true), at: 0)
        }
        let values = SettingsValues(
            mondays: mondays, goalWeight: form?.text("goalWeight") ?? ChallengeFormat.weightField(challenge.goalWeightKg, unit: challenge.weightUnit),
            unitKg: challenge.weightUnit == .kg, unitLb: challenge.weightUnit == .lb, weeks: form?.text("weeks") ?? String(challenge.weeks),
            challengeError: errors.isEmpty || errors["pin"] != nil || errors["confirm"] != nil ? nil : errors.values.sorted().first,
            reminders: settings.reminders.map { reminder in
                ReminderValue(kind: reminder.kind.rawValue, label: reminder.kind.label,
                              when: Strings.current(reminder.kind.isWeekly ? "challenge.reminderMondays" : "challenge.reminderDaily"),
                              time: reminder.time.description, enabled: reminder.enabled)
            },
            smartRules: settings.smartRules, pinSet: pinSet, lockOn: pinSet && settings.appLock,
            lockMinutes: [1, 5, 15, 30, 60].map {
                OnboardingPages.Option(value: String($0), label: Strings.current("challenge.lockAfterOption", count: $0), selected: $0 == settings.lockAfterMinutes)
            },
            pinError: errors["pin"], deleteError: errors["confirm"])
        let page = SettingsPage(chrome: chrome(context), frame: frame, title: title, notice: notice, settings: values,
                                isDemo: challenge.id == ChallengeDemoData.challengeId(userId: userId))
        return try WebTemplates.page("challenge-settings", page, status: errors.isEmpty ? .ok : .unprocessableContent)
    }

    func saveChallenge(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        var body = ChallengeBody()
        body.startDate = .value(form.text("startDate"))
        body.weeks = Self.number(form, "weeks")
        body.goalWeight = Self.number(form, "goalWeight")
        body.weightUnit = .value(form.text("weightUnit") == "lb" ? "lb" : "kg")
        do {
            _ = try await service.update(body, userId: context.userId)
        } catch let invalid as InvalidInput {
            return try await settingsPage(context, notice: nil, errors: invalid.fields, form: form)
        }
        return Self.redirect("/challenge/settings?saved=settings#challenge")
    }

    func saveReminders(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        var body = ChallengeSettingsBody()
        body.reminders = .value(ChallengeReminderKind.allCases.map { kind in
            ChallengeSettingsBody.Reminder(kind: kind.rawValue, enabled: form.text("\(kind.rawValue)Enabled") == "on",
                                           time: form.text("\(kind.rawValue)Time").isEmpty ? nil : form.text("\(kind.rawValue)Time"))
        })
        body.smartRules = .value(form.text("smartRules") == "on")
        do {
            _ = try await service.saveSettings(body, userId: context.userId)
        } catch let invalid as InvalidInput {
            return try await settingsPage(context, notice: nil, errors: invalid.fields)
        }
        return Self.redirect("/challenge/settings?saved=settings#reminders")
    }

    /// Deletes the challenge with every log, check-in and photo of it (the API's `DELETE /challenge`), once the
    /// person has ticked that they understand; back to Settings, which then offers to start one.
    func deleteChallenge(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        guard form.text("confirm") == "on" else {
            return try await settingsPage(context, notice: nil, errors: ["confirm": Strings.current("challenge.deleteConfirmMissing")])
        }
        _ = try await service.deleteCurrent(userId: context.userId)
        return Self.redirect("/challenge/settings?saved=deleted")
    }

    /// Sets (or replaces) the PIN and turns the lock on, with the minutes chosen.
    func setAppLock(_ context: WebUserContext) async throws -> Response {
        let form = try context.form()
        let pin = form.text("pin")
        var errors: [String: String] = [:]
        if !((4...6).contains(pin.count) && pin.allSatisfy({ $0.isASCII && $0.isNumber })) {
            errors["pin"] = Strings.current("challenge.pinFormat")
        } else if pin != form.text("pinConfirm") {
            errors["pin"] = Strings.current("challenge.pinMismatch")
        }
        guard errors.isEmpty else { return try await settingsPage(context, notice: nil, errors: errors) }
        try await ChallengeAppLockAPI.store(services).setPin(userId: context.userId, pinHash: try await accounts.passwords.hash(pin), now: services.now())
        var body = ChallengeSettingsBody()
        body.appLock = .value(true)
        if let minutes = Int(form.text("lockAfterMinutes")) { body.lockAfterMinutes = .value(minutes) }
        _ = try await service.saveSettings(body, userId: context.userId)
        return Self.redirect("/challenge/settings?saved=pin#privacy")
    }

    func removeAppLock(_ context: WebUserContext) async throws -> Response {
        _ = try context.form()
        _ = try await ChallengeAppLockAPI.store(services).removePin(userId: context.userId)
        var body = ChallengeSettingsBody()
        body.appLock = .value(false)
        _ = try await service.saveSettings(body, userId: context.userId)
        return Self.redirect("/challenge/settings?saved=pinRemoved#privacy")
    }
}
