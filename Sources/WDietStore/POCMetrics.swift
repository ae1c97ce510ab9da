import Foundation

/// The five validation metrics of 004 Story 5.4, computed from the analytics events with SQL.
///
/// The cohort is the users whose first `onboarding_started` falls in the period asked for. Their days are
/// counted from that instant in whole 24-hour periods: day 1 is the first 24 hours, day 7 starts 144 hours in
/// (the same for every backend and every time zone, which a local calendar day would not be).
///
/// - activation: `onboarding_finished` at any time / cohort.
/// - Week-1 retention: a `meal_logged` on day 7 / cohort.
/// - first-cycle completion: a `session_start` on day 28 or later (MATADOR's first 2 + 2 weeks) / cohort.
/// - education engagement: a `why_like_this_opened` at any time / cohort.
/// - phase-switch continuation: of the cohort users with a `cycle_phase_switched` (the first is the Day-14
///   switch), those who log a meal within 7 days after their first switch.
public struct POCMetrics: Hashable, Codable, Sendable {
    /// A share of users: how many did it, out of how many could.
    public struct Rate: Hashable, Codable, Sendable {
        public var users: Int
        public var outOf: Int
        /// users / outOf, nil when nobody could.
        public var rate: Double? { outOf == 0 ? nil : Double(users) / Double(outOf) }

        public init(users: Int, outOf: Int) {
            self.users = users
            self.outOf = outOf
        }

        enum CodingKeys: String, CodingKey { case users, outOf, rate }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            users = try container.decode(Int.self, forKey: .users)
            outOf = try container.decode(Int.self, forKey: .outOf)
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(users, forKey: .users)
            try container.encode(outOf, forKey: .outOf)
            try container.encode(rate, forKey: .rate)
        }
    }

    public var cohort: Int
    public var activation: Rate
    public var weekOneRetention: Rate
    public var firstCycleCompletion: Rate
    public var educationEngagement: Rate
    public var phaseSwitchContinuation: Rate

    public init(cohort: Int, activation: Rate, weekOneRetention: Rate, firstCycleCompletion: Rate, educationEngagement: Rate, phaseSwitchContinuation: Rate) {
        self.cohort = cohort
        self.activation = activation
        self.weekOneRetention = weekOneRetention
        self.firstCycleCompletion = firstCycleCompletion
        self.educationEngagement = educationEngagement
        self.phaseSwitchContinuation = phaseSwitchContinuation
    }

    /// The period's users counted from their raw counts (what the SQL returns).
    public init(cohort: Int, activated: Int, retainedWeekOne: Int, completedFirstCycle: Int, openedEducation: Int, switchedPhase: Int, continuedAfterSwitch: Int) {
        self.init(
            cohort: cohort,
            activation: Rate(users: activated, outOf: cohort),
            weekOneRetention: Rate(users: retainedWeekOne, outOf: cohort),
            firstCycleCompletion: Rate(users: completedFirstCycle, outOf: cohort),
            educationEngagement: Rate(users: openedEducation, outOf: cohort),
            phaseSwitchContinuation: Rate(users: continuedAfterSwitch, outOf: switchedPhase)
        )
    }
}

/// Computes `POCMetrics` where the events are stored.
public protocol POCMetricsStore: Sendable {
    /// For the users whose onboarding started in `[from, to)`; nil bounds are open.
    func pocMetrics(startedFrom from: Date?, to: Date?) async throws -> POCMetrics
}
