import Foundation

/// The sign-up and sign-in form's rules: what counts as an email and a password, and the words shown when they
/// do not. The API and the web pages check the same rules and show the same messages (001 §5: say what to do).
public enum AccountInput {
    public enum Field: String, Sendable, CaseIterable {
        case email, password
    }

    public enum Message {
        public static var email: String { Strings.current("account.email") }
        public static var passwordTooShort: String { Strings.current("account.passwordTooShort") }
        public static var passwordTooLong: String { Strings.current("account.passwordTooLong") }
        public static var passwordMissing: String { Strings.current("account.passwordMissing") }
    }

    public static let passwordLength = 8...128
    /// RFC 5321's limits on a whole address and on the part before the @.
    static let maxEmailLength = 254
    static let maxLocalPartLength = 64

    /// The email as it is stored and compared: surrounding spaces dropped, lowercased (providers treat addresses
    /// case-insensitively, and a lowercased column compares the same in every backend); nil when it does not look
    /// like an email address.
    public static func normalizedEmail(_ text: String) -> String? {
        let email = text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard email.count <= maxEmailLength, let at = email.lastIndex(of: "@") else { return nil }
        let local = email[..<at], domain = email[email.index(after: at)...]
        guard !local.isEmpty, local.count <= maxLocalPartLength, !local.contains("@"),
              !local.hasPrefix("."), !local.hasSuffix("."), !local.contains(".."),
              local.unicodeScalars.allSatisfy(isAllowedInAddress)
        else { return nil }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, let last = labels.last, last.count >= 2,
              !last.allSatisfy(\.isNumber),
              labels.allSatisfy({ label in
                  !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                      && label.unicodeScalars.allSatisfy { $0 == "-" || $0.properties.isAlphabetic || digits.contains($0) }
              })
        else { return nil }
        return email
    }

    /// The message for a password chosen at sign-up (or when a guest adds one), nil when it is acceptable.
    /// Lengths count characters as a person sees them.
    public static func newPasswordError(_ password: String) -> String? {
        if password.count < passwordLength.lowerBound { return Message.passwordTooShort }
        if password.count > passwordLength.upperBound { return Message.passwordTooLong }
        return nil
    }

    /// The form's errors for a new account, by field; empty when both are acceptable.
    public static func signUpErrors(email: String, password: String) -> [Field: String] {
        var errors: [Field: String] = [:]
        if normalizedEmail(email) == nil { errors[.email] = Message.email }
        if let message = newPasswordError(password) { errors[.password] = message }
        return errors
    }

    /// The form's errors for signing in: only what is plainly missing or malformed. Whether the password is right
    /// is the server's answer, and a password that predates today's length rules must still sign in.
    public static func signInErrors(email: String, password: String) -> [Field: String] {
        var errors: [Field: String] = [:]
        if normalizedEmail(email) == nil { errors[.email] = Message.email }
        if password.isEmpty { errors[.password] = Message.passwordMissing }
        return errors
    }

    private static let digits: ClosedRange<Unicode.Scalar> = "0"..."9"

    /// Printable, non-space characters other than the ones that delimit addresses.
    private static func isAllowedInAddress(_ scalar: Unicode.Scalar) -> Bool {
        guard !scalar.properties.isWhitespace, scalar.value >= 0x21, scalar.value != 0x7F else { return false }
        return !"()<>[]\\,;:\"".unicodeScalars.contains(scalar)
    }
}
