import Hummingbird

/// The web app's meal logging (search, portions, manual entry) and today's meals.
struct MealPages: Sendable {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {}
}
