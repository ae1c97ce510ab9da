import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// `GET /settings/import`: the import form on a page of its own, for the one moment an import can succeed — a new
/// account before its profile (a profile makes the account "not empty", 409). Onboarding's first step links here;
/// Settings → Your data shows the same form (`data-import` partial). The form is `assets/js/data-import.js`, which
/// sends the chosen file as it is to `POST /api/v1/import` with the page's CSRF token (docs/web-app.md "Import").
struct DataImportPage: Sendable {
    let services: AppServices

    struct Page {
        var chrome: PageChrome
        /// Back to Settings when there is a profile, else to onboarding.
        var backURL: String
        var backLabel: String
        /// The form's title is the page's second heading here (Settings' is a third, under "Your data").
        var importOnItsOwn = true
    }

    func register(on group: RouterGroup<WebUserContext>) {
        group.get("/settings/import") { _, context in
            let hasProfile = try await services.profiles.profile(userId: context.userId) != nil
            let page = Page(
                chrome: PageChrome(context: context),
                backURL: hasProfile ? "/settings" : "/onboarding/profile",
                backLabel: Strings.current(hasProfile ? "settings.title" : "onboarding.back")
            )
            return try WebTemplates.page("data-import-page", page)
        }
    }
}
