import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The web app's Settings (first version): units, eating window, time zone, language, the account, log out.
///
/// The page renders the profile's current choices; `assets/js/settings.js` saves them with `PUT /api/v1/profile`
/// and the profile's `version` as `baseVersion`, so an edit made elsewhere in between is caught (409) instead of
/// overwritten. The language and the appearance are plain forms (`AccountSettingChoice`). A guest adds an email and password here with a
/// plain form and keeps every row.
struct SettingsPages: Sendable {
    let services: AppServices
    let accounts: AccountService
    let configuration: ServerConfiguration

    struct SettingsPage {
        var chrome: PageChrome
        var version: String
        var weightKg: Bool
        var weightLb: Bool
        var heightCm: Bool
        var heightFtIn: Bool
        var windowStarts: [OnboardingPages.Option]
        var windowRange: String
        var timeZones: [OnboardingPages.Option]
        /// Automatic, then each language by its own name; the account's choice checked.
        var languages: [LanguageChoice.Option]
        var languageError: String?
        /// Auto, Light, Dark; the account's choice checked.
        var appearances: [AppearanceChoice.Option]
        var appearanceError: String?
        /// "Your plan will be updated tomorrow at midnight (Mon 2 Mar)" while a saved change waits.
        var pendingNotice: String?
        var isGuest: Bool
        var email: String?
        /// What "Delete account" erases, naming the email when there is one.
        var deleteWhat: String
        var upgradeEmail: String = ""
        var emailError: String?
        var passwordError: String?
        var accountError: String?
        /// A toast for the script to show once: set after the guest's account was created.
        var toast: String?
        /// The account has a password, so the change-password form shows.
        var hasPassword: Bool = false
        var currentPasswordError: String?
        var newPasswordError: String?
        var passwordFormError: String?
        /// "Delete account": the dialog opens again with the error when a deletion was refused.
        var deletePasswordError: String?
        var deleteError: String?
        /// Stored, not computed: templates read values through reflection, which sees stored properties only.
        var deleteDialogOpen = false
    }

    func register(on group: RouterGroup<WebUserContext>) {
        registerPasswordChange(on: group)
        registerAccountDeletion(on: group)
        AccountSettingChoice<Language>(services: services, accounts: accounts).registerForm(on: group, settings: self)
        AccountSettingChoice<Appearance>(services: services, accounts: accounts).registerForm(on: group, settings: self)
        group.get("/settings") { request, context in
            let userId = context.userId
            let stored = try await WebPage.requireProfile(services, userId: userId)
            var page = try await settingsPage(stored, userId: userId, context: context)
            if request.uri.queryParameters.get("account") == "created" { page.toast = Strings.current("settings.accountCreated") }
            if request.uri.queryParameters.get("password") == "changed" { page.toast = Strings.current("settings.passwordChanged") }
            for (member, message) in [(Language.member, Language.savedMessageKey), (Appearance.member, Appearance.savedMessageKey)]
            where request.uri.queryParameters.get(member) == "saved" {
                page.toast = Strings.current(message)
            }
            return try WebTemplates.page("settings", page)
        }
        group.post("/settings/account") { request, context in
            let userId = context.userId
            let form = try context.form()
            do {
                let signedIn = try await accounts.upgradeGuest(
                    userId: userId, email: form.text("email"), password: form["password"] ?? "", kind: .web, logger: context.logger
                )
                // The guest's sessions ended with the upgrade; this browser carries on with the new one.
                var response = Response(status: .seeOther, headers: [.location: "/settings?account=created", .cacheControl: "no-store"])
                response.setCookie(WebSession.sessionCookie(signedIn.token, secure: configuration.secureCookies))
                return response
            } catch {
                guard let refused = RefusedAccountForm(error) else { throw error }
                let stored = try await WebPage.requireProfile(services, userId: userId)
                var page = try await settingsPage(stored, userId: userId, context: context)
                page.upgradeEmail = form.text("email")
                page.emailError = refused.fields["email"]
                page.passwordError = refused.fields["password"]
                page.accountError = refused.formMessage(besides: "email", "password")
                return try WebTemplates.page("settings", page, status: refused.status == .conflict ? .conflict : .unprocessableContent)
            }
        }
    }

    /// Changing the password ends every session of the user, this browser's too; it carries on with a new one.
    func registerPasswordChange(on group: RouterGroup<WebUserContext>) {
        group.post("/settings/password") { request, context in
            let userId = context.userId
            let form = try context.form()
            do {
                let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
                let signedIn = try await accounts.changePassword(
                    userId: userId, currentPassword: form["currentPassword"] ?? "", newPassword: form["newPassword"] ?? "",
                    kind: .web, clientAddress: address
                )
                var response = Response(status: .seeOther, headers: [.location: "/settings?password=changed", .cacheControl: "no-store"])
                response.setCookie(WebSession.sessionCookie(signedIn.token, secure: configuration.secureCookies))
                return response
            } catch {
                guard let refused = RefusedAccountForm(error) else { throw error }
                let stored = try await WebPage.requireProfile(services, userId: userId)
                var page = try await settingsPage(stored, userId: userId, context: context)
                page.currentPasswordError = refused.fields["currentPassword"]
                page.newPasswordError = refused.fields["newPassword"]
                page.passwordFormError = refused.formMessage(besides: "currentPassword", "newPassword")
                return refused.withRetryAfter(try WebTemplates.page("settings", page, status: refused.status))
            }
        }
    }

    /// "Delete account": the account and everything in it are erased, every session ends, and the browser lands on
    /// the welcome page with a toast. Refused (wrong password, throttled): Settings again with the dialog open.
    func registerAccountDeletion(on group: RouterGroup<WebUserContext>) {
        group.post("/settings/delete-account") { request, context in
            let userId = context.userId
            let form = try context.form()
            do {
                let address = ClientAddress.of(request, remoteAddress: context.remoteAddress, trustForwardedFor: configuration.trustForwardedFor)
                try await accounts.deleteAccount(
                    userId: userId, password: form["password"], confirm: form["confirm"], clientAddress: address
                )
                var response = Response(status: .seeOther, headers: [.location: "/?account=deleted", .cacheControl: "no-store"])
                response.setCookie(WebSession.clearedSessionCookie(secure: configuration.secureCookies))
                return response
            } catch {
                guard let refused = RefusedAccountForm(error) else { throw error }
                let stored = try await WebPage.requireProfile(services, userId: userId)
                var page = try await settingsPage(stored, userId: userId, context: context)
                page.deletePasswordError = refused.fields["password"]
                page.deleteError = refused.formMessage(besides: "password")
                page.deleteDialogOpen = true
                return refused.withRetryAfter(try WebTemplates.page("settings", page, status: refused.status))
            }
        }
    }

    func settingsPage(_ stored: StoredProfile, userId: UUID, context: WebUserContext) async throws -> SettingsPage {
        let profile = stored.profile
        let user = try await accounts.user(id: userId)
        let hasPassword = try await services.passwords.passwordHash(userId: userId) != nil
        async let language = Language.read(services.accounts, userId: userId)
        async let appearance = Appearance.read(services.accounts, userId: userId)
        let today = LocalDate(services.now(), in: profile.timeZone)
        let window = profile.eatingWindow
        return SettingsPage(
            chrome: PageChrome(context: context, tab: .settings),
            version: String(stored.version),
            weightKg: profile.weightUnit == .kg, weightLb: profile.weightUnit == .lb,
            heightCm: profile.heightUnit == .cm, heightFtIn: profile.heightUnit == .ftIn,
            windowStarts: stride(from: 0, to: 1_440, by: EatingWindow.stepMinutes).compactMap(EatingWindow.init(startMinute:)).map { option in
                OnboardingPages.Option(
                    value: EatingWindow.clock(option.startMinute), label: option.twelveHourLabel, selected: option == window
                )
            },
            windowRange: window.twelveHourLabel,
            timeZones: Self.timeZoneOptions(selected: profile.timeZoneIdentifier, at: services.now()),
            languages: LanguageChoice.options(chosen: try await language),
            appearances: AppearanceChoice.options(chosen: try await appearance),
            pendingNotice: stored.pendingChange(on: today)?.notice(today: today),
            isGuest: user?.email == nil,
            email: user?.email,
            deleteWhat: user?.email.map { Strings.current("settings.deleteWhatEmail", ["email": $0]) } ?? Strings.current("settings.deleteWhat"),
            hasPassword: hasPassword
        )
    }

    /// Every zone the system knows, with its current offset ("Europe/Berlin (GMT+01:00)"); the profile's own zone
    /// is always among them.
    static func timeZoneOptions(selected: String, at now: Date) -> [OnboardingPages.Option] {
        var identifiers = TimeZone.knownTimeZoneIdentifiers.sorted()
        if !identifiers.contains(selected) { identifiers.insert(selected, at: 0) }
        return identifiers.map { identifier in
            let name = identifier.replacingOccurrences(of: "_", with: " ")
            let label = TimeZone(identifier: identifier).map { "\(name) (\(offsetLabel($0.secondsFromGMT(for: now))))" } ?? name
            return OnboardingPages.Option(value: identifier, label: label, selected: identifier == selected)
        }
    }

    static func offsetLabel(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        return "GMT" + sign + String(format: "%02d:%02d", minutes / 60, minutes % 60)
    }
}
