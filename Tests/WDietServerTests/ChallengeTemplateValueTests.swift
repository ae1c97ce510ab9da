import Foundation
import Mustache
import Testing
import WDietCore
@testable import WDietServer

/// Home's page values answer their template by name (`MustacheParent`) instead of through Mustache's `Mirror`
/// lookup: each must answer every stored property exactly as the reflection would (a property added without its
/// name in `child(named:)` fails here), nil for an absent optional (so the lookup goes on up the context stack, as it
/// did) and for a name it does not have.
@Suite("Challenge template values")
struct ChallengeTemplateValueTests {
    /// What Mustache's own lookup gives for `name`: the stored property of that label, an optional unwrapped.
    static func reflected(_ value: Any, _ name: String) -> Any? {
        guard let child = Mirror(reflecting: value).children.first(where: { $0.label == name }) else { return nil }
        return PageRoot.unwrapped(child.value)
    }

    static func expectAnswersAsReflected(_ value: some MustacheParent, sourceLocation: SourceLocation = #_sourceLocation) {
        let labels = Mirror(reflecting: value).children.compactMap(\.label)
        #expect(!labels.isEmpty, sourceLocation: sourceLocation)
        for label in labels {
            let answered = value.child(named: label), reflected = Self.reflected(value, label)
            #expect((answered == nil) == (reflected == nil), "\(type(of: value)).\(label)", sourceLocation: sourceLocation)
            #expect(answered.map { String(reflecting: $0) } == reflected.map { String(reflecting: $0) },
                    "\(type(of: value)).\(label)", sourceLocation: sourceLocation)
        }
        #expect(value.child(named: "noSuchName") == nil, sourceLocation: sourceLocation)
    }

    static var checklist: ChallengePages.Checklist {
        ChallengePages.Checklist(
            date: "2026-12-01", nutrition: ChallengeState(.done, text: "From meals", detail: "450 kcal"),
            workout: ChallengeState(.pending, text: "Pending"),
            habits: [ChallengePages.HabitToggle(name: "water", label: "Water", icon: "droplet", on: true),
                     ChallengePages.HabitToggle(name: "sleep", label: "Sleep", icon: "moon", on: false)],
            csrf: "token-1")
    }

    static var thisWeek: ChallengePages.ThisWeek {
        ChallengePages.ThisWeek(week: 16, heading: "This Week (16)", photo: ChallengeState(.late, text: "Late Upload", detail: "Tue 1 Dec"),
                                weighIn: ChallengeState(.done, text: "Done", detail: "73.8 kg"), checkInHref: "/challenge/check-in?week=16")
    }

    @Test("every value of Home answers each stored property as the reflection does, set and absent")
    func homeValuesAnswerAsReflected() {
        let streak = ChallengeStreakValue(label: "Nutrition", text: "12 days", icon: "pie-chart")
        let start = LocalDate(iso: "2026-11-30")!
        let challenge = Challenge(startDate: start, weeks: 17, startWeightKg: 80, goalWeightKg: 75, weightUnit: .kg, createdAt: Date(timeIntervalSince1970: 0))
        let score = ChallengeScoreValue(ChallengeData(challenge: challenge).score(week: 1, today: start.adding(days: 1)))
        var full = ChallengePages.HomePage(
            chrome: PageChrome(csrfToken: "token-1"), frame: ChallengeFrame(tab: .home, lockAfterMinutes: 5), title: "Challenge",
            streaks: [streak], finished: false)
        full.empty = ChallengeEmpty(icon: "flag", prompt: "Start", actionHref: "/challenge/start", actionLabel: "Start a challenge")
        full.upcoming = "Starts Monday"
        full.subtitle = "Week 16 of 17 · Day 107"
        full.notice = "Saved"
        full.checklist = Self.checklist
        full.thisWeek = Self.thisWeek
        full.score = score
        Self.expectAnswersAsReflected(full)
        let bare = ChallengePages.HomePage(chrome: PageChrome(csrfToken: ""), frame: ChallengeFrame(tab: .log), title: "Challenge",
                                           streaks: [], finished: true)
        Self.expectAnswersAsReflected(bare)
        #expect(bare.child(named: "checklist") == nil && bare.child(named: "score") == nil)

        Self.expectAnswersAsReflected(Self.checklist)
        Self.expectAnswersAsReflected(Self.checklist.habits[0])
        Self.expectAnswersAsReflected(Self.checklist.habits[1])
        Self.expectAnswersAsReflected(Self.thisWeek)
        Self.expectAnswersAsReflected(ChallengeState(.done, text: "Done", detail: "1,900 kcal"))
        Self.expectAnswersAsReflected(ChallengeState(.skipped, text: "Skipped"))
        Self.expectAnswersAsReflected(streak)
        Self.expectAnswersAsReflected(score)
        Self.expectAnswersAsReflected(ChallengeEmpty(icon: "flag", prompt: "Start", actionHref: "/challenge/start", actionLabel: "Start"))
        Self.expectAnswersAsReflected(ChallengeEmpty(icon: "flag", prompt: "Start"))
        Self.expectAnswersAsReflected(ChallengeFrame(tab: .settings, lockAfterMinutes: 15))
        Self.expectAnswersAsReflected(ChallengeFrame(tab: .none))
        Self.expectAnswersAsReflected(PageChrome(csrfToken: "token-2"))
    }
}
