import Foundation
import WDietCore

/// Everything a dashboard day is computed from, read in one consistent snapshot.
public struct DashboardInputs: Sendable {
    public var profile: StoredProfile
    /// The local day of `now` in the profile's time zone.
    public var today: LocalDate
    public var todaysMeals: [Meal]
    /// The current values of the last 8 days with a weight, oldest first: today's average and the day before's.
    public var recentWeights: [(date: LocalDate, kg: Double)]
    /// The latest run of consecutive logged days on or before today, newest first.
    public var latestRun: [LocalDate]

    public init(profile: StoredProfile, today: LocalDate, todaysMeals: [Meal], recentWeights: [(date: LocalDate, kg: Double)], latestRun: [LocalDate]) {
        self.profile = profile
        self.today = today
        self.todaysMeals = todaysMeals
        self.recentWeights = recentWeights
        self.latestRun = latestRun
    }

    /// How many daily weights the dashboard needs: 7 for today's average, one more for the trend.
    public static let weightDays = WeightHistory.averageWindow + 1
}

/// The dashboard's read, in one transaction: the page that loads most often gets one round trip, and never
/// sees a meal without the streak day it made.
public protocol DashboardStore: Sendable {
    /// Nil when the user has no profile yet. `dataVersion` is the user's change counter as the request's session
    /// lookup read it (PostgreSQL), nil when unknown: a store may answer from inputs it kept at that version.
    func dashboardInputs(userId: UUID, now: Date, dataVersion: Int64?) async throws -> DashboardInputs?
}

extension DashboardStore {
    public func dashboardInputs(userId: UUID, now: Date) async throws -> DashboardInputs? {
        try await dashboardInputs(userId: userId, now: now, dataVersion: nil)
    }
}
