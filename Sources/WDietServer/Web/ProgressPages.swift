import Hummingbird

/// The web app's Progress tab.
struct ProgressPages: Sendable {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {}
}
