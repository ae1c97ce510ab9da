import Foundation
import Hummingbird
import Mustache
import WDietStore

/// What every page's template gets besides its own values: the CSRF token (for `<meta name="csrf-token">` and forms)
/// and which tab of the tab bar is current. Pass it as `chrome` in a page's values.
struct PageChrome: Sendable {
    var csrfToken: String
    var signedIn: Bool
    var tabHome = false
    var tabJournal = false
    var tabProgress = false
    var tabLearn = false
    var tabSettings = false

    enum Tab { case home, journal, progress, learn, settings, none }

    init(context: some WebRequestContext, tab: Tab = .none, preSessionToken: String? = nil) {
        csrfToken = context.webSessionToken.map(WebSession.csrfToken(forSession:)) ?? preSessionToken ?? ""
        signedIn = context.signedInUserId != nil
        switch tab {
        case .home: tabHome = true
        case .journal: tabJournal = true
        case .progress: tabProgress = true
        case .learn: tabLearn = true
        case .settings: tabSettings = true
        case .none: break
        }
    }
}

/// Every page reads the chrome: its properties by name, without reflection.
extension PageChrome: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "csrfToken": csrfToken
        case "signedIn": signedIn
        case "tabHome": tabHome
        case "tabJournal": tabJournal
        case "tabProgress": tabProgress
        case "tabLearn": tabLearn
        case "tabSettings": tabSettings
        default: nil
        }
    }
}

/// Guards shared by the page handlers.
enum WebPage {
    /// The user's profile, or a redirect to onboarding's profile steps when there is none yet.
    static func requireProfile(_ services: AppServices, userId: UUID) async throws -> StoredProfile {
        guard let profile = try await services.profiles.profile(userId: userId) else {
            throw WebRedirect(location: "/onboarding/profile")
        }
        return profile
    }
}
