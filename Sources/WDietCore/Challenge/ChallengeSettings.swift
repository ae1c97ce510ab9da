import Foundation

/// The five reminders of 003's Settings, in 003's order.
public enum ChallengeReminderKind: String, Codable, CaseIterable, Hashable, Sendable {
    case nutrition, workout, photo, weighIn, habits

    /// 003's defaults: nutrition 20:30, workout 18:00, photo Monday 10:00, weigh-in Monday 10:15, habits 21:00.
    public var defaultTime: JournalTime {
        switch self {
        case .nutrition: JournalTime(hour: 20, minute: 30)!
        case .workout: JournalTime(hour: 18, minute: 0)!
        case .photo: JournalTime(hour: 10, minute: 0)!
        case .weighIn: JournalTime(hour: 10, minute: 15)!
        case .habits: JournalTime(hour: 21, minute: 0)!
        }
    }

    /// The photo and the weigh-in are weekly, due on Mondays; the rest daily.
    public var isWeekly: Bool { self == .photo || self == .weighIn }

    public var label: String {
        switch self {
        case .nutrition: Strings.current("challenge.reminderNutrition")
        case .workout: Strings.current("challenge.reminderWorkout")
        case .photo: Strings.current("challenge.reminderPhoto")
        case .weighIn: Strings.current("challenge.reminderWeighIn")
        case .habits: Strings.current("challenge.reminderHabits")
        }
    }
}

/// One reminder's choice: on or off, and its local time (weekly ones on Mondays).
public struct ChallengeReminder: Hashable, Codable, Sendable {
    public var kind: ChallengeReminderKind
    public var enabled: Bool
    public var time: JournalTime

    public init(kind: ChallengeReminderKind, enabled: Bool = true, time: JournalTime? = nil) {
        self.kind = kind
        self.enabled = enabled
        self.time = time ?? kind.defaultTime
    }
}

/// A workout template (003 "Use Push Template", one tap): what a workout of a type is filled with.
public struct ChallengeWorkoutTemplate: Hashable, Codable, Sendable {
    public var type: ChallengeWorkoutType
    public var minutes: Int?
    public var notes: String?

    public init(type: ChallengeWorkoutType, minutes: Int?, notes: String?) {
        self.type = type
        self.minutes = minutes
        self.notes = notes
    }

    /// The built-in templates (the notes in the person's language): 45 minutes for Push, Pull and Legs, 30 for
    /// Plyo-Abs, none for Rest.
    public static var defaults: [ChallengeWorkoutTemplate] {
        ChallengeWorkoutType.allCases.map { type in
            switch type {
            case .push: ChallengeWorkoutTemplate(type: type, minutes: 45, notes: Strings.current("challenge.templatePush"))
            case .pull: ChallengeWorkoutTemplate(type: type, minutes: 45, notes: Strings.current("challenge.templatePull"))
            case .legs: ChallengeWorkoutTemplate(type: type, minutes: 45, notes: Strings.current("challenge.templateLegs"))
            case .plyoAbs: ChallengeWorkoutTemplate(type: type, minutes: 30, notes: Strings.current("challenge.templatePlyoAbs"))
            case .rest: ChallengeWorkoutTemplate(type: type, minutes: nil, notes: Strings.current("challenge.templateRest"))
            }
        }
    }
}

/// The challenge's settings (collection `challenge_settings`, one row per challenge:
/// `ChallengeIds.settings(challengeId:)`): reminders with Smart Rules (stored for the reminders work), whether the
/// app lock is wanted and after how long away, and the person's own workout templates. The PIN itself is never
/// here: it is kept only as a slow hash on the server (docs/challenge.md).
public struct ChallengeSettings: Hashable, Codable, Sendable, Identifiable {
    public static let collection = "challenge_settings"
    public static let lockMinutesRange = 1...60
    /// PRODUCT.md: quiet hours 22:00–07:00, at most 3 reminders a day.
    public static let quietStart = JournalTime(hour: 22, minute: 0)!
    public static let quietEnd = JournalTime(hour: 7, minute: 0)!
    public static let maxRemindersPerDay = 3

    public var id: UUID
    public var challengeId: UUID
    public var reminders: [ChallengeReminder]
    public var smartRules: Bool
    public var appLock: Bool
    /// Minutes away after which the app locks (PRODUCT.md: 5).
    public var lockAfterMinutes: Int
    public var workoutTemplates: [ChallengeWorkoutTemplate]
    public var updatedAt: Date

    public init(challengeId: UUID, reminders: [ChallengeReminder] = ChallengeReminderKind.allCases.map { ChallengeReminder(kind: $0) },
                smartRules: Bool = true, appLock: Bool = false, lockAfterMinutes: Int = 5,
                workoutTemplates: [ChallengeWorkoutTemplate] = [], updatedAt: Date) {
        self.id = ChallengeIds.settings(challengeId: challengeId)
        self.challengeId = challengeId
        self.reminders = reminders
        self.smartRules = smartRules
        self.appLock = appLock
        self.lockAfterMinutes = lockAfterMinutes
        self.workoutTemplates = workoutTemplates
        self.updatedAt = updatedAt
    }

    /// The reminder of a kind as chosen (003's default when the row has none of that kind).
    public func reminder(_ kind: ChallengeReminderKind) -> ChallengeReminder {
        reminders.first { $0.kind == kind } ?? ChallengeReminder(kind: kind)
    }

    /// The template of a type: the person's own, else the built-in one.
    public func template(_ type: ChallengeWorkoutType) -> ChallengeWorkoutTemplate {
        workoutTemplates.first { $0.type == type } ?? ChallengeWorkoutTemplate.defaults.first { $0.type == type }!
    }

    public func validate() throws(ChallengeInvalid) {
        var errors: [String: String] = [:]
        ChallengeRowRules.checkId(id, ChallengeIds.settings(challengeId: challengeId), &errors)
        if Set(reminders.map(\.kind)).count != reminders.count { errors["reminders"] = Strings.current("challenge.reminderTwice") }
        if !Self.lockMinutesRange.contains(lockAfterMinutes) {
            errors["lockAfterMinutes"] = Strings.current("challenge.lockMinutesRange", ["max": String(Self.lockMinutesRange.upperBound)])
        }
        if Set(workoutTemplates.map(\.type)).count != workoutTemplates.count {
            errors["workoutTemplates"] = Strings.current("challenge.templateTwice")
        }
        for (index, template) in workoutTemplates.enumerated() {
            if let minutes = template.minutes, !ChallengeWorkoutLog.minutesRange.contains(minutes) {
                errors["workoutTemplates.\(index).minutes"] = Strings.current(
                    "challenge.minutesRange", ["max": String(ChallengeWorkoutLog.minutesRange.upperBound)])
            }
            if let notes = template.notes, notes.count > ChallengeRowRules.maxNotesLength {
                errors["workoutTemplates.\(index).notes"] = Strings.current("challenge.notesLength", ["max": String(ChallengeRowRules.maxNotesLength)])
            }
        }
        guard errors.isEmpty else { throw ChallengeInvalid(errors: errors) }
    }
}

/// Smart Rules (PRODUCT.md): which reminders a day gets. For the reminders work; pure, so a phone schedules its
/// notifications with the same rules the server would.
public enum ChallengeReminderPlan {
    /// The reminders due on `date`, in time order. Weekly ones (photo, weigh-in) only on Mondays; disabled ones
    /// never. With Smart Rules on: a reminder whose thing is already done (`done`) is skipped; none falls in
    /// quiet hours 22:00–07:00; at most 3 a day, kept by priority — the week's photo and weigh-in first (they turn
    /// late after Monday), then nutrition, workout, habits (the score's weights).
    public static func due(on date: LocalDate, settings: ChallengeSettings, done: Set<ChallengeReminderKind>) -> [ChallengeReminder] {
        var chosen = ChallengeReminderKind.allCases.map(settings.reminder).filter { reminder in
            reminder.enabled && (!reminder.kind.isWeekly || date.isoWeekday == 1)
        }
        guard settings.smartRules else { return chosen.sorted { $0.time < $1.time } }
        chosen.removeAll { done.contains($0.kind) || isQuiet($0.time) }
        let priority: [ChallengeReminderKind] = [.photo, .weighIn, .nutrition, .workout, .habits]
        chosen.sort { priority.firstIndex(of: $0.kind)! < priority.firstIndex(of: $1.kind)! }
        return Array(chosen.prefix(ChallengeSettings.maxRemindersPerDay)).sorted { $0.time < $1.time }
    }

    /// 22:00 up to (not including) 07:00.
    public static func isQuiet(_ time: JournalTime) -> Bool {
        time >= ChallengeSettings.quietStart || time < ChallengeSettings.quietEnd
    }
}
