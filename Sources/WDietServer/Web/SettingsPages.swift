import Hummingbird

/// The web app's Settings.
struct SettingsPages: Sendable {
    let services: AppServices
    let accounts: AccountService
    let configuration: ServerConfiguration

    func register(on router: Router<AppRequestContext>) {}
}
