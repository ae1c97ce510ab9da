import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The language a person reads w-diet in: their account's choice, else their browser's `Accept-Language`.
/// Settings offers "Automatic (browser)" and each catalog language by its own name; the choice is kept on the
/// account (`AccountStore.setLanguage`) and read with every session (`AccountSession.language`), and
/// `AccountLanguageMiddleware` runs the request in it. The web page saves it with a form; native clients use
/// `GET|PUT /api/v1/settings/language`.
struct LanguageChoice: Sendable {
    let services: AppServices
    let accounts: AccountService

    /// One radio button of the Settings page.
    struct Option: Sendable {
        /// The submitted value: "" for automatic, else the language's tag.
        var value: String
        var label: String
        /// The language the label is written in (for `lang`, so a screen reader pronounces "Deutsch" as German).
        var lang: String
        var checked: Bool
    }

    static func options(chosen: Language?) -> [Option] {
        let current = Strings.current
        return [Option(value: "", label: current("settings.languageAutomatic"), lang: current.language.tag, checked: chosen == nil)]
            + Language.allCases.map { Option(value: $0.tag, label: $0.nativeName, lang: $0.tag, checked: $0 == chosen) }
    }

    /// What a client sent: "" or nothing (automatic) is `.some(nil)`; a catalog language's tag is that language;
    /// anything else is nil (refused).
    static func parse(_ value: String?) -> Language?? {
        let trimmed = value?.trimmingCharacters(in: .whitespaces) ?? ""
        if trimmed.isEmpty { return .some(nil) }
        guard let language = Language(rawValue: trimmed.lowercased()) else { return nil }
        return .some(language)
    }

    static var invalid: APIError {
        let message = Strings.current("settings.languageInvalid")
        return .invalid(message, fields: ["language": message])
    }

    /// Keeps the choice, and forgets this process's remembered sessions of the user so that their next request,
    /// on any device, is read in it.
    func save(_ language: Language?, userId: UUID) async throws {
        try await services.accounts.setLanguage(language, userId: userId)
        accounts.sessionCache.forget(userId: userId)
    }

    // MARK: API

    /// `{"language": "de"}`, or `{"language": null}` when the account follows the browser.
    struct Body: Codable, Sendable, ResponseEncodable {
        var language: String?

        init(_ language: Language?) { self.language = language?.tag }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            // The member must be there: null is a choice (follow the browser), its absence is a mistake.
            guard container.contains(.language) else { throw LanguageChoice.invalid }
            language = try container.decodeNil(forKey: .language) ? nil : container.decode(String.self, forKey: .language)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            if let language { try container.encode(language, forKey: .language) } else { try container.encodeNil(forKey: .language) }
        }

        enum CodingKeys: String, CodingKey { case language }
    }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("settings/language") { _, context in
            Body(try await services.accounts.language(userId: context.userId))
        }
        group.put("settings/language") { request, context in
            let body = try await APIInput.decode(Body.self, from: request, context: context)
            var language: Language?
            if let tag = body.language {
                // A language's tag as the API writes it ("de"); following the browser is null, not "".
                guard let chosen = Language(rawValue: tag) else { throw Self.invalid }
                language = chosen
            }
            try await save(language, userId: context.userId)
            return Body(language)
        }
    }
}

extension SettingsPages {
    /// `POST /settings/language` (the `language` field: "", "en", "de"): saved, then Settings again, read in the new
    /// language with a toast saying so. A value no language has: Settings with the error, 422.
    func registerLanguageChoice(on group: RouterGroup<WebUserContext>) {
        group.post("/settings/language") { _, context in
            let userId = context.userId
            let form = try context.form()
            guard let language = LanguageChoice.parse(form["language"]) else {
                let stored = try await WebPage.requireProfile(services, userId: userId)
                var page = try await settingsPage(stored, userId: userId, context: context)
                page.languageError = LanguageChoice.invalid.message
                return try WebTemplates.page("settings", page, status: .unprocessableContent)
            }
            try await LanguageChoice(services: services, accounts: accounts).save(language, userId: userId)
            return Response(status: .seeOther, headers: [.location: "/settings?language=saved#language", .cacheControl: "no-store"])
        }
    }
}
