import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The theme a person reads w-diet in (PRODUCT.md "appearance"): Auto (the system's light or dark, the default),
/// Light or Dark. The choice is kept on the account (`AccountStore.setAppearance`) and read with every session
/// (`AccountSession.appearance`), so the server writes it on `<html data-theme>` and the first paint is already in it.
/// The web page saves it with a form; native clients use `GET|PUT /api/v1/settings/appearance`.
struct AppearanceChoice: Sendable {
    let services: AppServices
    let accounts: AccountService

    /// One radio button of the Settings page.
    struct Option: Sendable {
        /// The submitted value: "" for Auto, else "light" or "dark".
        var value: String
        var label: String
        var checked: Bool
    }

    static func options(chosen: Appearance?) -> [Option] {
        let strings = Strings.current
        return [Option(value: "", label: strings("settings.appearanceAuto"), checked: chosen == nil)]
            + Appearance.allCases.map { appearance in
                let label = switch appearance {
                case .light: strings("settings.appearanceLight")
                case .dark: strings("settings.appearanceDark")
                }
                return Option(value: appearance.rawValue, label: label, checked: appearance == chosen)
            }
    }

    /// What a form sent: "" or nothing (Auto) is `.some(nil)`; "light" or "dark" is that theme; anything else is nil
    /// (refused).
    static func parse(_ value: String?) -> Appearance?? {
        let trimmed = value?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        if trimmed.isEmpty { return .some(nil) }
        guard let appearance = Appearance(rawValue: trimmed) else { return nil }
        return .some(appearance)
    }

    static var invalid: APIError {
        let message = Strings.current("settings.appearanceInvalid")
        return .invalid(message, fields: ["appearance": message])
    }

    /// Keeps the choice, and forgets this process's remembered sessions of the user so that their next page, on any
    /// device, is written in it.
    func save(_ appearance: Appearance?, userId: UUID) async throws {
        try await services.accounts.setAppearance(appearance, userId: userId)
        accounts.sessionCache.forget(userId: userId)
    }

    // MARK: API

    /// `{"appearance": "dark"}`, or `{"appearance": null}` for Auto.
    struct Body: Codable, Sendable, ResponseEncodable {
        var appearance: String?

        init(_ appearance: Appearance?) { self.appearance = appearance?.rawValue }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // The member must be there: null is a choice (Auto), its absence is a mistake.
            guard container.contains(.appearance) else { throw AppearanceChoice.invalid }
            appearance = try container.decodeNil(forKey: .appearance) ? nil : container.decode(String.self, forKey: .appearance)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let appearance { try container.encode(appearance, forKey: .appearance) } else { try container.encodeNil(forKey: .appearance) }
        }

        enum CodingKeys: String, CodingKey { case appearance }
    }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("settings/appearance") { _, context in
            Body(try await services.accounts.appearance(userId: context.userId))
        }
        group.put("settings/appearance") { request, context in
            let body = try await APIInput.decode(Body.self, from: request, context: context)
            var appearance: Appearance?
            if let value = body.appearance {
                // "light" or "dark" as the API writes them; Auto is null, not "".
                guard let chosen = Appearance(rawValue: value) else { throw Self.invalid }
                appearance = chosen
            }
            try await save(appearance, userId: context.userId)
            return Body(appearance)
        }
    }
}

extension SettingsPages {
    /// `POST /settings/appearance` (the `appearance` field: "", "light", "dark"): saved, then Settings again, drawn in
    /// the new theme with a toast saying so. Any other value: Settings with the error, 422.
    func registerAppearanceChoice(on group: RouterGroup<WebUserContext>) {
        group.post("/settings/appearance") { _, context in
            let userId = context.userId
            let form = try context.form()
            guard let appearance = AppearanceChoice.parse(form["appearance"]) else {
                let stored = try await WebPage.requireProfile(services, userId: userId)
                var page = try await settingsPage(stored, userId: userId, context: context)
                page.appearanceError = AppearanceChoice.invalid.message
                return try WebTemplates.page("settings", page, status: .unprocessableContent)
            }
            try await AppearanceChoice(services: services, accounts: accounts).save(appearance, userId: userId)
            return Response(status: .seeOther, headers: [.location: "/settings?appearance=saved#appearance", .cacheControl: "no-store"])
        }
    }
}
