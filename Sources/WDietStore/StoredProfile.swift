import Foundation
import WDietCore

/// A profile with the bookkeeping the store adds. `version` is what a later save passes back as
/// `expectedVersion`, so that an edit made against a stale copy is refused instead of silently lost.
public struct StoredProfile: Hashable, Sendable {
    /// The profile as last saved: what the profile page shows.
    public var profile: Profile
    /// What the saves left waiting for the user's next local midnight ("changes apply tomorrow"): the target
    /// inputs the latest change replaced, and its day; nil when nothing waited. A change stays here after it
    /// applies (`isPending(on:)` turns false), so readers ask about a date rather than test for nil.
    public var planChange: PlanChange?
    /// The changes before `planChange`, oldest first: with it, the `planHistory` that says which target inputs were
    /// in force when any past day began.
    public var earlierPlanChanges: [PlanChange]
    public var userId: UUID
    public var version: Int64
    public var createdAt: Date
    public var updatedAt: Date

    public init(
        profile: Profile, planChange: PlanChange? = nil, earlierPlanChanges: [PlanChange] = [], userId: UUID, version: Int64,
        createdAt: Date, updatedAt: Date
    ) {
        self.profile = profile
        self.planChange = planChange
        self.earlierPlanChanges = earlierPlanChanges
        self.userId = userId
        self.version = version
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Every change of the target inputs, oldest first.
    public var planHistory: PlanHistory {
        get { PlanHistory(earlier: earlierPlanChanges, latest: planChange) }
        set {
            planChange = newValue.latest
            earlierPlanChanges = newValue.earlier
        }
    }

    /// The profile that the targets of `date` (a local date in the profile's time zone) come from: the target
    /// inputs in force when `date` began.
    public func profile(forTargetsOn date: LocalDate) -> Profile {
        planHistory.profile(forTargetsOn: date, current: profile)
    }

    /// The targets of `day` given the latest weight logged before it began (`DayTargetsReader` reads it).
    public func targets(on day: LocalDate, weightBeforeDayKg: Double?) -> Targets {
        Targets.of(day: day, profile: profile, history: planHistory, weightBeforeDayKg: weightBeforeDayKg)
    }

    /// The change that still waits on `date`, for "Your plan will be updated tomorrow".
    public func pendingChange(on date: LocalDate) -> PlanChange? {
        planChange.flatMap { $0.isPending(on: date) ? $0 : nil }
    }
}
