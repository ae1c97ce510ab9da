import Foundation
import Hummingbird
import Mustache
import WDietCore
import WDietStore

/// The frame every Challenge screen shares (issue 20 item 3, docs/challenge.md "Screens"): the challenge's own tab
/// bar (Home, Log, Check-In, Progress, Settings) and a way back to w-diet, the stylesheet `css/challenge.css`, the
/// line icons (`challenge-icons`, an inline SVG sprite: `<svg class="ch-icon"><use href="#ch-i-home"/></svg>`) and
/// the app lock (`challenge.js` asks for the PIN after `lockAfterMinutes` away in this browser).
///
/// A page value carries `chrome` (`PageChrome`) and `frame` (this); its template is
/// `{{<layout}} … {{$head}}{{> challenge-head}}{{/head}} … {{$tabbar}}{{> challenge-tabbar}}{{/tabbar}}`.
struct ChallengeFrame: Sendable, MustacheParent {
    enum Tab: Sendable { case home, log, checkIn, progress, settings, none }

    var tabHome = false
    var tabLog = false
    var tabCheckIn = false
    var tabProgress = false
    var tabSettings = false
    /// Minutes away after which `challenge.js` asks for the PIN; nil while the app lock is off or no PIN is set.
    var lockAfterMinutes: Int?

    init(tab: Tab, lockAfterMinutes: Int? = nil) {
        switch tab {
        case .home: tabHome = true
        case .log: tabLog = true
        case .checkIn: tabCheckIn = true
        case .progress: tabProgress = true
        case .settings: tabSettings = true
        case .none: break
        }
        self.lockAfterMinutes = lockAfterMinutes
    }

    /// The stored properties by name, for templates without reflection.
    func child(named name: String) -> Any? {
        switch name {
        case "tabHome": tabHome
        case "tabLog": tabLog
        case "tabCheckIn": tabCheckIn
        case "tabProgress": tabProgress
        case "tabSettings": tabSettings
        case "lockAfterMinutes": lockAfterMinutes
        default: nil
        }
    }

    /// The frame of a signed-in user's page: the lock applies when the challenge's settings have it on and a PIN is set.
    static func load(_ services: AppServices, userId: UUID, tab: Tab) async throws -> ChallengeFrame {
        let service = ChallengeService(services: services)
        guard let current = try await service.store.current(userId: userId) else { return ChallengeFrame(tab: tab) }
        let (settings, _) = try await service.settings(of: current.value, userId: userId)
        guard settings.appLock else { return ChallengeFrame(tab: tab) }
        let hasPin = try await ChallengeAppLockAPI.store(services).appLock(userId: userId) != nil
        return ChallengeFrame(tab: tab, lockAfterMinutes: hasPin ? settings.lockAfterMinutes : nil)
    }
}
