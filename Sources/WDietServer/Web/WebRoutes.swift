import Hummingbird

/// The mobile-first web app's pages: server-rendered HTML, enhanced by small scripts under /assets/js that talk to
/// the JSON API with the session cookie and the page's CSRF token. Each area registers its own routes.
struct WebRoutes: Sendable {
    let services: AppServices
    let accounts: AccountService
    let configuration: ServerConfiguration

    struct WelcomePage {
        var chrome: PageChrome
        /// Shown once by `app.js` (after an account was deleted).
        var toast: String?
    }

    func register(on router: Router<AppRequestContext>) {
        router.get("/") { request, context in
            // A returning user goes straight to the day; a new visitor sees the welcome step.
            if let userId = context.userId {
                let hasProfile = try await services.profiles.profile(userId: userId) != nil
                throw WebRedirect(location: hasProfile ? "/dashboard" : "/onboarding/profile")
            }
            let deleted = request.uri.queryParameters.get("account") == "deleted"
            let toast = deleted ? "Your account and all your data have been deleted." : nil
            return try WebTemplates.page("welcome", WelcomePage(chrome: PageChrome(context: context), toast: toast))
        }
        OnboardingPages(services: services, accounts: accounts, configuration: configuration).register(on: router)
        SettingsPages(services: services, accounts: accounts, configuration: configuration).register(on: router)
        DashboardPages(services: services).register(on: router)
        ProgressPages(services: services).register(on: router)
        MealPages(services: services).register(on: router)
        LearnPages(services: services).register(on: router)
        ProfilePages(services: services).register(on: router)
    }
}
