import Hummingbird

/// The web app's onboarding (account step, the 8 profile steps), sign in and out.
struct OnboardingPages: Sendable {
    let services: AppServices
    let accounts: AccountService
    let configuration: ServerConfiguration

    func register(on router: Router<AppRequestContext>) {}
}
