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
            planUpdatesOn: try await planUpdatesOn(stored, date: date, weightInUse: weight ?? profile.weightKg, userId: context.userId)
        )
    }
}

extension PlanAPI {
    /// The next day while a profile change saved on `date` waits, or while a weight logged on `date` differs from the
    /// one its targets use (PRODUCT.md "current weight": it counts from the next day).
    func planUpdatesOn(_ stored: StoredProfile, date: LocalDate, weightInUse: Double, userId: UUID) async throws -> LocalDate? {
        if let change = stored.pendingChange(on: date) { return change.effectiveDate }
        let latest = try await services.weights.recentDailyWeights(userId: userId, through: date, days: 1).last
        guard let latest, latest.localDate == date, latest.entry.kg != weightInUse else { return nil }
        return date.adding(days: 1)
    }
}

extension PlanSummary: ResponseEncodable {}
