import Hummingbird

/// `/`: the welcome step for a new visitor; a returning user goes straight to the day (or to the profile steps).
struct WelcomePages: Sendable {
    let services: AppServices

    struct WelcomePage {
        var chrome: PageChrome
        /// Shown once by `app.js` (after an account was deleted).
        var toast: String?
    }

    func register(on router: RouterGroup<AppRequestContext>) {
        router.get("/") { request, context in
            if let userId = context.userId {
                let hasProfile = try await services.profiles.profile(userId: userId) != nil
                throw WebRedirect(location: hasProfile ? "/dashboard" : "/onboarding/profile")
            }
            let deleted = request.uri.queryParameters.get("account") == "deleted"
            let toast = deleted ? "Your account and all your data have been deleted." : nil
            return try WebTemplates.page("welcome", WelcomePage(chrome: PageChrome(context: context), toast: toast))
        }
    }
}
