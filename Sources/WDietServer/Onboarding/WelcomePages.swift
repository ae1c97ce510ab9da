import Hummingbird
import WDietCore

/// `/`: the welcome step for a new visitor; a returning user goes straight to the day (or to the profile steps).
struct WelcomePages: Sendable {
    let services: AppServices

    struct WelcomePage {
        var chrome: PageChrome
        /// Shown once by `app.js` (after an account was deleted).
        var toast: String?
        /// "Log a meal in seconds from 8,789 USDA foods, …" with the count in the language's number format.
        var pointFoods: String
    }

    /// SR28's foods, the catalog a new account searches.
    static let usdaFoodCount = 8_789

    func register(on router: RouterGroup<AppRequestContext>) {
        router.get("/") { request, context in
            if let userId = context.userId {
                let hasProfile = try await services.profiles.profile(userId: userId) != nil
                throw WebRedirect(location: hasProfile ? "/dashboard" : "/onboarding/profile")
            }
            let deleted = request.uri.queryParameters.get("account") == "deleted"
            let strings = Strings.current
            let page = WelcomePage(
                chrome: PageChrome(context: context),
                toast: deleted ? strings("welcome.accountDeleted") : nil,
                pointFoods: strings("welcome.pointFoods", ["foods": strings.number(Self.usdaFoodCount)])
            )
            return try WebTemplates.page("welcome", page)
        }
    }
}
