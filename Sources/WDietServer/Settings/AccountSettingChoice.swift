import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// A value kept on the account and read with every session: Settings → Language (`Language`) and Settings →
/// Appearance (`Appearance`). nil is the automatic choice (the browser's language, the system's theme).
protocol AccountSetting: Sendable, Equatable {
    /// The member of the API's body and of the web form, the path under `/settings/` and `/api/v1/settings/`.
    static var member: String { get }
    /// The catalog key of "Please choose one of …".
    static var invalidMessageKey: String { get }
    /// The Settings page's field for that message.
    static var pageError: WritableKeyPath<SettingsPages.SettingsPage, String?> { get }
    /// The catalog key of the toast after a save.
    static var savedMessageKey: String { get }
    /// The value as the API and the form write it ("de", "dark").
    var wireValue: String { get }
    init?(wireValue: String)
    static func read(_ accounts: any AccountStore, userId: UUID) async throws -> Self?
    static func write(_ value: Self?, to accounts: any AccountStore, userId: UUID) async throws
}

extension Language: AccountSetting {
    static let member = "language"
    static let invalidMessageKey = "settings.languageInvalid"
    static let savedMessageKey = "settings.languageSaved"
    static var pageError: WritableKeyPath<SettingsPages.SettingsPage, String?> { \.languageError }
    var wireValue: String { tag }
    init?(wireValue: String) { self.init(rawValue: wireValue) }
    static func read(_ accounts: any AccountStore, userId: UUID) async throws -> Language? { try await accounts.language(userId: userId) }
    static func write(_ value: Language?, to accounts: any AccountStore, userId: UUID) async throws {
        try await accounts.setLanguage(value, userId: userId)
    }
}

extension Appearance: AccountSetting {
    static let member = "appearance"
    static let invalidMessageKey = "settings.appearanceInvalid"
    static let savedMessageKey = "settings.appearanceSaved"
    static var pageError: WritableKeyPath<SettingsPages.SettingsPage, String?> { \.appearanceError }
    var wireValue: String { rawValue }
    init?(wireValue: String) { self.init(rawValue: wireValue) }
    static func read(_ accounts: any AccountStore, userId: UUID) async throws -> Appearance? { try await accounts.appearance(userId: userId) }
    static func write(_ value: Appearance?, to accounts: any AccountStore, userId: UUID) async throws {
        try await accounts.setAppearance(value, userId: userId)
    }
}

/// Choosing an `AccountSetting`: the web form (`POST /settings/<member>`) and the API
/// (`GET|PUT /api/v1/settings/<member>`, `{"<member>": "…"}` or null for automatic). A save forgets this process's
/// remembered sessions of the user, so their next request, on any device, is answered in the new choice.
struct AccountSettingChoice<Value: AccountSetting>: Sendable {
    let services: AppServices
    let accounts: AccountService

    /// What a form sent: "" or nothing (automatic) is `.some(nil)`; a known value (any case) is that value; anything
    /// else is nil (refused).
    static func parse(_ value: String?) -> Value?? {
        let trimmed = value?.trimmingCharacters(in: .whitespaces) ?? ""
        if trimmed.isEmpty { return .some(nil) }
        guard let chosen = Value(wireValue: trimmed.lowercased()) else { return nil }
        return .some(chosen)
    }

    static var invalid: APIError {
        let message = Strings.current(Value.invalidMessageKey)
        return .invalid(message, fields: [Value.member: message])
    }

    func save(_ value: Value?, userId: UUID) async throws {
        try await Value.write(value, to: services.accounts, userId: userId)
        accounts.sessionCache.forget(userId: userId)
    }

    /// `{"<member>": "<value>"}`, or `{"<member>": null}` for the automatic choice.
    struct Body: Codable, Sendable, ResponseEncodable {
        var value: String?

        init(_ value: Value?) { self.value = value?.wireValue }

        struct Member: CodingKey {
            var stringValue: String { Value.member }
            var intValue: Int? { nil }
            init() {}
            init?(stringValue: String) { guard stringValue == Value.member else { return nil } }
            init?(intValue: Int) { nil }
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Member.self)
            // The member must be there: null is a choice (automatic), its absence is a mistake.
            guard container.contains(Member()) else { throw AccountSettingChoice.invalid }
            value = try container.decodeNil(forKey: Member()) ? nil : container.decode(String.self, forKey: Member())
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Member.self)
            if let value { try container.encode(value, forKey: Member()) } else { try container.encodeNil(forKey: Member()) }
        }
    }

    func addRoutes(to group: RouterGroup<AuthenticatedContext>) {
        group.get("settings/\(Value.member)") { _, context in
            Body(try await Value.read(services.accounts, userId: context.userId))
        }
        group.put("settings/\(Value.member)") { request, context in
            let body = try await APIInput.decode(Body.self, from: request, context: context)
            var chosen: Value?
            if let text = body.value {
                // The value exactly as the API writes it ("de", "dark"); the automatic choice is null, not "".
                guard let value = Value(wireValue: text) else { throw Self.invalid }
                chosen = value
            }
            try await save(chosen, userId: context.userId)
            return Body(chosen)
        }
    }

    /// `POST /settings/<member>`: saved, then Settings again, answered in the new choice with a toast saying so. A
    /// value not offered: Settings with the error, 422.
    func registerForm(on group: RouterGroup<WebUserContext>, settings: SettingsPages) {
        group.post("/settings/\(Value.member)") { _, context in
            let userId = context.userId
            let form = try context.form()
            guard let chosen = Self.parse(form[Value.member]) else {
                let stored = try await WebPage.requireProfile(services, userId: userId)
                var page = try await settings.settingsPage(stored, userId: userId, context: context)
                page[keyPath: Value.pageError] = Self.invalid.message
                return try WebTemplates.page("settings", page, status: .unprocessableContent)
            }
            try await save(chosen, userId: userId)
            return Response(
                status: .seeOther,
                headers: [.location: "/settings?\(Value.member)=saved#\(Value.member)", .cacheControl: "no-store"])
        }
    }
}
