import Foundation

/// Everything the dashboard shows for one local day, computed from the profile and what was logged.
/// WDietCore's entry point for the coach: pure, given the day, the instant and the data.
///
/// The day may be today or a past day. A past day shows its own totals against its own targets, its own weight
/// and the streak as it stood at that day's end; "now" only places the current minute against the eating window,
/// which happens on today alone.
public struct DashboardDay: Hashable, Codable, Sendable {
    public var date: LocalDate
    public var targets: Targets
    public var totals: DailyTotals
    public var ring: Ring
    public var macros: [MacroProgress]
    public var streak: Streak
    public var weightCard: WeightCard
    /// True when the day is today and no weight is logged today: the "Log today's weight" prompt card shows.
    public var showsWeightPrompt: Bool
    public var eatingWindow: EatingWindow
    /// Where "now" falls against the eating window; nil for a past day (there is no "now" in it).
    public var windowPlacementNow: EatingWindow.Placement?
    /// True when `date` is the user's local day of `now`.
    public var isToday: Bool
    public var fireCoach: FireCoach
    /// Set on today while a saved profile change or a weight logged today waits for midnight: the first day of the
    /// new targets ("Your plan will be updated tomorrow", `PlanChange.notice(today:)`). Today's targets are still
    /// the ones the day began with.
    public var planUpdatesOn: LocalDate?

    /// - Parameters:
    ///   - day: the user's local day to show (today, or a past day).
    ///   - meals: the meals of `day`.
    ///   - weightDays: the weight history from `WeightHistory.days`, up to `day` at least (days after it are
    ///     ignored; only the last 8 up to it are needed).
    ///   - loggedDays: local dates with any log, for the streak as of `day`.
    ///   - profile: the profile as saved; `planHistory` its changes of the target inputs (the day's targets are
    ///     `Targets.of(day:…)`: the inputs in force when the day began, the latest weight logged before it).
    ///   - now: the instant of the request: which day is today, and where now falls against the eating window.
    public static func compute(
        profile: Profile, planHistory: PlanHistory = PlanHistory(), day: LocalDate, meals: [Meal], weightDays: [WeightDay],
        loggedDays: Set<LocalDate>, now: Date
    ) -> DashboardDay {
        compute(profile: profile, planHistory: planHistory, day: day, meals: meals, weightDays: weightDays, now: now) { day in
            Streak(loggedDays: loggedDays, today: day)
        }
    }

    /// The same, with the streak from the run of logged days that ends at the latest logged day up to `day`
    /// (`LoggedDayStore.latestRun(through: day)`): what the stores read, without building a set of every day.
    public static func compute(
        profile: Profile, planHistory: PlanHistory = PlanHistory(), day: LocalDate, meals: [Meal], weightDays: [WeightDay],
        latestRun: [LocalDate], now: Date
    ) -> DashboardDay {
        compute(profile: profile, planHistory: planHistory, day: day, meals: meals, weightDays: weightDays, now: now) { day in
            Streak(latestRun: latestRun, today: day)
        }
    }

    private static func compute(
        profile: Profile, planHistory: PlanHistory, day: LocalDate, meals: [Meal], weightDays: [WeightDay], now: Date,
        streakOn: (LocalDate) -> Streak
    ) -> DashboardDay {
        let timeZone = profile.timeZone
        let today = LocalDate(now, in: timeZone)
        let isToday = day == today
        let weightDays = weightDays.filter { $0.date <= day }
        let weightBefore = Targets.latestWeight(before: day, in: weightDays)
        let targets = Targets.of(day: day, profile: profile, history: planHistory, weightBeforeDayKg: weightBefore)
        let totals = DailyTotals(meals: meals)
        let streak = streakOn(day)
        let weightCard = WeightCard(days: weightDays, today: day)
        let minute = (timeZone.secondsFromGMT(for: now) + Int(now.timeIntervalSince1970.rounded(.down))).mod(86_400) / 60
        return DashboardDay(
            date: day, targets: targets, totals: totals,
            ring: Ring(totals: totals, targetKcal: Double(targets.calories)),
            macros: MacroProgress.all(totals: totals, targets: targets),
            streak: streak, weightCard: weightCard, showsWeightPrompt: isToday && weightCard.todayKg == nil,
            eatingWindow: profile.eatingWindow,
            windowPlacementNow: isToday ? profile.eatingWindow.placement(ofMinute: minute) : nil, isToday: isToday,
            fireCoach: FireCoach.variant(streak: streak, cycle: targets.cycle),
            planUpdatesOn: isToday ? planUpdatesOn(
                planHistory, weightCard: weightCard,
                weightInUse: weightBefore ?? planHistory.targetInputs(on: day, current: profile.targetInputs).weightKg, today: today
            ) : nil
        )
    }
}

extension DashboardDay {
    /// Tomorrow while a profile change waits, or while today's weight differs from the one today's targets use.
    static func planUpdatesOn(_ history: PlanHistory, weightCard: WeightCard, weightInUse: Double, today: LocalDate) -> LocalDate? {
        if let change = history.pendingChange(on: today) { return change.effectiveDate }
        if let kg = weightCard.todayKg, kg != weightInUse { return today.adding(days: 1) }
        return nil
    }
}

extension Int {
    func mod(_ m: Int) -> Int { ((self % m) + m) % m }
}
