import Foundation
import WDietCore

/// Reads what a dashboard day needs and hands it to WDietCore's `DashboardDay.compute`.
/// The server's dashboard page, its JSON twin and the benchmark all go through here.
public struct DashboardReader: Sendable {
    public let store: any DashboardStore

    public init(store: any DashboardStore) {
        self.store = store
    }

    /// The dashboard of the user's local day at `now`; `.notFound` when the user has no profile yet.
    /// `dataVersion`: see `DashboardStore`.
    public func dashboard(userId: UUID, now: Date, dataVersion: Int64? = nil) async throws -> DashboardDay {
        guard let inputs = try await store.dashboardInputs(userId: userId, now: now, dataVersion: dataVersion) else {
            throw StoreError.notFound(Strings.current("errors.profileMissing"))
        }
        return DashboardDay.compute(
            profile: inputs.profile.profile, planHistory: inputs.profile.planHistory, day: inputs.today, meals: inputs.todaysMeals,
            weightDays: WeightHistory.days(inputs.recentWeights), latestRun: inputs.latestRun, now: now
        )
    }
}
