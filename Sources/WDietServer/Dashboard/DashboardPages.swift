import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The web app's dashboard (Home tab) and the weight picker.
///
/// The page is drawn from the same `DashboardDay` as `GET /api/v1/dashboard`, for the user's local day in their
/// profile's time zone. Its script only enhances it: the weight picker saves through the JSON API and then swaps in
/// the freshly rendered live part of this same page.
struct DashboardPages: Sendable {
    let services: AppServices

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/dashboard") { request, context in
            let userId = context.userId
            let stored = try await WebPage.requireProfile(services, userId: userId)
            let now = services.now()
            let shown = try PageDay.from(request, today: LocalDate(now, in: stored.profile.timeZone))
            // A past day is read as it stood at its local noon: its meals, its weight, the streak as of that day.
            async let day = services.dashboards.dashboard(
                userId: userId, now: shown.instant(now: now, in: stored.profile.timeZone), dataVersion: context.userDataVersion)
            // Every entry: the latest is where the picker starts, the day's own get Edit and Delete.
            async let history = services.weights.weightHistory(userId: userId)
            let shownDay = try await day
            if shown.isToday { services.events.recordDashboardMoments(shownDay, userId: userId, logger: context.logger) }
            let entries = try await history
            var view = DashboardView(
                day: shownDay, profile: stored.profile, latestWeightKg: entries.last?.entry.kg,
                chrome: PageChrome(context: context, tab: .home), shown: shown
            )
            view.weightEntries = entries.filter { $0.localDate == shown.date }.map {
                WeightEntryView($0, unit: stored.profile.weightUnit, timeZone: stored.profile.timeZone)
            }
            return try WebTemplates.page("dashboard", view)
        }
    }
}
