import Hummingbird

/// The mobile-first web app's pages (server-rendered HTML; small script only where it helps).
struct WebRoutes: Sendable {
    let services: AppServices

    struct WelcomePage {}

    func register(on router: Router<AppRequestContext>) {
        router.get("/") { _, _ in
            try WebTemplates.page("welcome", WelcomePage())
        }
    }
}
