import Foundation
import WDietCore

/// What a new password must be (OWASP ASVS 5.0 V6.2): 8 to 128 characters counted as a person sees them, any
/// characters at all, no composition rules, and not one of the passwords attackers try first. Checked at sign-up,
/// when a guest adds a password and when a password changes; signing in checks only that one was typed, so a
/// password chosen before a rule existed still opens its account.
enum PasswordPolicy {
    static var commonPasswordMessage: String { Strings.current("auth.commonPassword") }
    static var containsEmailMessage: String { Strings.current("auth.passwordIsEmail") }

    /// The message for a new password, nil when it is acceptable. `email` is the account's (normalized) email, when
    /// there is one: a password that is the email or its name part is refused like a common one.
    static func newPasswordError(_ password: String, email: String?) -> String? {
        if let message = AccountInput.newPasswordError(password) { return message }
        let comparable = comparableForm(password)
        if commonPasswords.contains(comparable) { return commonPasswordMessage }
        if let email, let at = email.lastIndex(of: "@") {
            let name = String(email[..<at])
            if comparable == email || (name.count >= AccountInput.passwordLength.lowerBound && comparable == name) {
                return containsEmailMessage
            }
        }
        return nil
    }

    /// Case and surrounding spaces do not make a common password uncommon.
    static func comparableForm(_ password: String) -> String {
        password.precomposedStringWithCanonicalMapping.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// `common-passwords.txt`, read once: one password a line, `#` starts a comment line.
    static let commonPasswords: Set<String> = {
        guard let url = Bundle.module.url(forResource: "common-passwords", withExtension: "txt"),
              let text = try? String(contentsOf: url, encoding: .utf8)
        else { return [] }
        return Set(text.split(whereSeparator: \.isNewline).compactMap { line in
            let entry = comparableForm(String(line))
            return entry.isEmpty || entry.hasPrefix("#") ? nil : entry
        })
    }()
}
