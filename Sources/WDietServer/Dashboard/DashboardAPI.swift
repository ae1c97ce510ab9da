import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `GET /api/v1/dashboard?date=YYYY-MM-DD`: the dashboard of today, or of another local day as it stood at that
/// day's local noon.
struct DashboardAPI: Sendable {
    let services: AppServices

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("dashboard", use: show)
    }

    @Sendable func show(_ request: Request, context: AuthenticatedContext) async throws -> DashboardJSON {
        var now = services.now()
        let requested = try APIInput.date(query: "date", of: request)
        if let date = requested {
            // Another day needs the user's zone to find its noon; today (the common case) needs no extra read.
            guard let stored = try await services.profiles.profile(userId: context.userId, seen: context.profileSeen) else { throw APIError.profileMissing }
            now = Self.instant(for: date, now: now, in: stored.profile.timeZone)
        }
        do {
            let day = try await services.dashboards.dashboard(userId: context.userId, now: now, dataVersion: context.userDataVersion)
            if requested == nil { services.events.recordDashboardMoments(day, userId: context.userId, logger: context.logger) }
            return DashboardJSON(day)
        } catch StoreError.notFound {
            throw APIError.profileMissing
        }
    }

    /// The instant a day's dashboard is read at: now for today, local noon for any other day (noon is inside
    /// the day whatever daylight saving time does to it).
    static func instant(for date: LocalDate, now: Date, in timeZone: TimeZone) -> Date {
        date == LocalDate(now, in: timeZone) ? now : date.startInstant(in: timeZone).addingTimeInterval(12 * 3_600)
    }
}
