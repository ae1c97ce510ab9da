import Foundation

/// The MATADOR schedule (004 FR-5, Story 2.1; Byrne et al. 2018): 14 days at maintenance, 14 days of diet, repeat.
/// Day 1 is the plan's start date; phases switch at local midnight in the user's time zone.
public struct MatadorCycle: Hashable, Sendable {
    public static let phaseLength = 14
    public static let cycleLength = 28

    public enum Phase: String, Codable, Sendable {
        case maintenance, diet

        public var title: String { Strings.current(self == .maintenance ? "coach.maintenancePhase" : "coach.dietPhase") }
    }

    public var planStart: LocalDate

    public init(planStart: LocalDate) { self.planStart = planStart }

    /// The state of the cycle on a local date; nil before the plan starts.
    public func status(on date: LocalDate) -> Status? {
        let index = planStart.days(until: date)
        guard index >= 0 else { return nil }
        let phaseIndex = index / Self.phaseLength
        return Status(
            phase: phaseIndex % 2 == 0 ? .maintenance : .diet,
            dayOfPhase: index % Self.phaseLength + 1,
            dayOfPlan: index + 1,
            cycleNumber: index / Self.cycleLength + 1,
            nextSwitchDate: planStart.adding(days: (phaseIndex + 1) * Self.phaseLength)
        )
    }

    /// The state at an instant, for a user in `timeZone`.
    public func status(at instant: Date, in timeZone: TimeZone) -> Status? {
        status(on: LocalDate(instant, in: timeZone))
    }

    public struct Status: Hashable, Codable, Sendable {
        public var phase: Phase
        /// 1...14
        public var dayOfPhase: Int
        /// 1 on the start date.
        public var dayOfPlan: Int
        /// 1 for days 1–28, 2 for days 29–56, ...
        public var cycleNumber: Int
        /// The first day of the next phase.
        public var nextSwitchDate: LocalDate

        /// "Day 3 of 14 · Maintenance phase"
        public var label: String {
            let strings = Strings.current
            return strings("coach.phaseDay", [
                "day": strings.number(dayOfPhase), "length": strings.number(MatadorCycle.phaseLength), "phase": phase.title,
            ])
        }
        /// Week 1 is when the coach is gentle (🔥😌).
        public var isWeekOne: Bool { dayOfPlan <= 7 }
        /// Day 28 is the "First Cycle Complete!" milestone.
        public var completesFirstCycle: Bool { dayOfPlan == MatadorCycle.cycleLength }
        /// The first day of a phase after the first: the "first phase switch" tooltip shows on day 15.
        public var isPhaseSwitchDay: Bool { dayOfPhase == 1 && dayOfPlan > 1 }

        /// The phase's calories before the floor: maintenance is TDEE, diet follows the deficit setting.
        public func calories(tdee: Double, deficit: DeficitSetting) -> Double {
            phase == .maintenance ? tdee : deficit.dietCalories(tdee: tdee)
        }
    }
}
