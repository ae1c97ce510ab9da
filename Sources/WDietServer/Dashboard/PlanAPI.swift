import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `GET /api/v1/plan?date=YYYY-MM-DD`: the targets of one local day (today in the user's zone by default),
/// from the profile in force that day and the latest weight logged on or before it.
struct PlanAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("plan", use: show)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> PlanSummary {
        let requested = try APIInput.date(query: "date", of: request)
        guard let stored = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen) else { throw APIError.profileMissing }
        let date = requested ?? LocalDate(services.now(), in: stored.profile.timeZone)
        // The day's targets (`Targets.of`): the inputs in force when it began, the latest weight logged before it.
        let reader = DayTargetsReader(profiles: services.profiles, weights: services.weights)
        let weight = try await reader.weightBefore(userId: context.userId, day: date)
        let profile = stored.profile(forTargetsOn: date)
        let targets = stored.targets(on: date, weightBeforeDayKg: weight)
        return PlanSummary(
            date: date, targets: targets, weightKg: weight ?? profile.weightKg, goal: profile.goal,
            planUpdatesOn: stored.pendingChange(on: date)?.effectiveDate
        )
    }
}

extension PlanSummary: ResponseEncodable {}
