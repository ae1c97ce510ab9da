import Foundation
import WDietCore

/// The language a person reads w-diet in: their account's choice, else their browser's `Accept-Language`.
/// Settings offers "Automatic (browser)" and each catalog language by its own name; the choice is kept on the
/// account (`AccountStore.setLanguage`) and read with every session (`AccountSession.language`), and
/// `AccountSettingsMiddleware` runs the request in it. Saving it, by form or by `GET|PUT /api/v1/settings/language`,
/// is `AccountSettingChoice<Language>`.
enum LanguageChoice {
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
}
