import Foundation
import WDietCore

/// The theme a person reads w-diet in (PRODUCT.md "appearance"): Auto (the system's light or dark, the default),
/// Light or Dark. The choice is kept on the account (`AccountStore.setAppearance`) and read with every session
/// (`AccountSession.appearance`), so the server writes it on `<html data-theme>` and the first paint is already in it.
/// Saving it, by form or by `GET|PUT /api/v1/settings/appearance`, is `AccountSettingChoice<Appearance>`.
enum AppearanceChoice {
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
}
