import Foundation

/// Everything the dashboard shows for one local day, computed from the profile and what was logged.
/// WDietCore's entry point for the coach: pure, given the instant and the data.
public struct DashboardDay: Hashable, Codable, Sendable {
    public var date: LocalDate
    public var targets: Targets
    public var totals: DailyTotals
    public var ring: Ring
    public var macros: [MacroProgress]
    public var streak: Streak
    public var weightCard: WeightCard
    /// True when nothing is logged today: the "Log today's weight" prompt card shows.
    public var showsWeightPrompt: Bool
    public var eatingWindow: EatingWindow
    /// Where "now" falls against the eating window.
    public var windowPlacementNow: EatingWindow.Placement
    public var fireCoach: FireCoach
    /// Set while a saved profile change waits for midnight: the first day of the new targets ("Your plan will be
    /// updated tomorrow", `PlanChange.notice(today:)`). Today's targets are still the previous ones.
    public var planUpdatesOn: LocalDate?

    /// - Parameters:
    ///   - todaysMeals: the meals of the local day of `now`.
    ///   - weightDays: the weight history from `WeightHistory.days` (only the last 8 are needed).
    ///   - loggedDays: local dates with any log, for the streak.
    ///   - profile: the profile as saved; `planChange` is the change of it that may still wait for midnight.
    public static func compute(
        profile: Profile, planChange: PlanChange? = nil, todaysMeals: [Meal], weightDays: [WeightDay],
        loggedDays: Set<LocalDate>, now: Date
    ) -> DashboardDay {
        compute(profile: profile, planChange: planChange, todaysMeals: todaysMeals, weightDays: weightDays, now: now) { today in
            Streak(loggedDays: loggedDays, today: today)
        }
    }

    /// The same, with the streak from the run of logged days that ends at the latest logged day up to today
    /// (`LoggedDayStore.latestRun`): what the stores read, without building a set of every day.
    public static func compute(
        profile: Profile, planChange: PlanChange? = nil, todaysMeals: [Meal], weightDays: [WeightDay],
        latestRun: [LocalDate], now: Date
    ) -> DashboardDay {
        compute(profile: profile, planChange: planChange, todaysMeals: todaysMeals, weightDays: weightDays, now: now) { today in
            Streak(latestRun: latestRun, today: today)
        }
    }

    private static func compute(
        profile: Profile, planChange: PlanChange?, todaysMeals: [Meal], weightDays: [WeightDay], now: Date,
        streakOn: (LocalDate) -> Streak
    ) -> DashboardDay {
        let timeZone = profile.timeZone
        let today = LocalDate(now, in: timeZone)
        let targetsProfile = planChange?.profile(forTargetsOn: today, current: profile) ?? profile
        let targets = Targets.compute(profile: targetsProfile, latestWeightKg: weightDays.last?.kg, on: today)
        let totals = DailyTotals(meals: todaysMeals)
        let streak = streakOn(today)
        let weightCard = WeightCard(days: weightDays, today: today)
        let minute = (timeZone.secondsFromGMT(for: now) + Int(now.timeIntervalSince1970.rounded(.down))).mod(86_400) / 60
        return DashboardDay(
            date: today, targets: targets, totals: totals,
            ring: Ring(totals: totals, targetKcal: Double(targets.calories)),
            macros: MacroProgress.all(totals: totals, targets: targets),
            streak: streak, weightCard: weightCard, showsWeightPrompt: weightCard.todayKg == nil,
            eatingWindow: profile.eatingWindow, windowPlacementNow: profile.eatingWindow.placement(ofMinute: minute),
            fireCoach: FireCoach.variant(streak: streak, cycle: targets.cycle),
            planUpdatesOn: planChange.flatMap { $0.isPending(on: today) ? $0.effectiveDate : nil }
        )
    }
}

extension Int {
    func mod(_ m: Int) -> Int { ((self % m) + m) % m }
}
