import Hummingbird

/// The web app's dashboard (Home tab) and the weight picker.
struct DashboardPages: Sendable {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {}
}
