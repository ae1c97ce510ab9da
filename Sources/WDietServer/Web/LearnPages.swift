import Hummingbird

/// The web app's Learn tab (Markdown articles) and the coach's tips.
struct LearnPages: Sendable {
    let services: AppServices

    func register(on router: Router<AppRequestContext>) {}
}
