import WDietCore

/// Why `AccountService` said no, when no field broke a rule (that is `InvalidInput`): a wrong password, a taken
/// email, a throttled sign-in, an Apple or Google token that does not hold. It knows nothing of HTTP: the API answers
/// each with the status and code it always had (`AccountRefusal+HTTP`), a page shows the message beside the field
/// it names, else above its form. Messages are made when read, so they come out in the request's language.
enum AccountRefusal: Error, Equatable, Sendable {
    /// No account opens with this email and password; an unknown email gets the same answer.
    case invalidCredentials
    /// Changing the password: the current one is wrong.
    case currentPasswordIncorrect
    /// Deleting the account: the password is wrong.
    case deletePasswordIncorrect
    case emailTaken
    /// Only a guest adds an email and password.
    case notAGuest
    /// The account has no password to change (it signs in with Apple or Google, or is a guest).
    case noPassword
    /// The session's user is gone (deleted by another request meanwhile).
    case notSignedIn
    /// Too many wrong passwords for the email or from the client address (`LoginThrottle`).
    case tooManyAttempts(retryAfterSeconds: Int)
    /// Too many accounts or guests made from the client address (`AccountCreationLimit`).
    case tooManyAccounts(retryAfterSeconds: Int)
    /// Password recovery needs SMTP settings and a public URL this server lacks (`PasswordRecovery`).
    case recoveryUnavailable
    /// A password-reset link that is unknown, used or expired.
    case resetLinkInvalid
    case providerNotConfigured(IdentityProvider.Name)
    /// The Apple or Google ID token did not verify (signature, audience, nonce, expiry, …).
    case invalidIDToken(IdentityProvider.Name)
    /// The token's verified email belongs to an account that has not linked this identity yet.
    case linkRequired(IdentityProvider.Name)
    /// The identity is linked to another account already.
    case identityLinked
    /// The provider's keys could not be fetched.
    case providerUnavailable(IdentityProvider.Name)

    var message: String {
        let strings = Strings.current
        return switch self {
        case .invalidCredentials: strings("auth.invalidCredentials")
        case .currentPasswordIncorrect: strings("auth.currentPasswordIncorrect")
        case .deletePasswordIncorrect: strings("auth.passwordIncorrect")
        case .emailTaken: strings("auth.emailTaken")
        case .notAGuest: strings("auth.notAGuest")
        case .noPassword: strings("auth.noPassword")
        case .notSignedIn: strings("errors.unauthorized")
        case .tooManyAttempts(let seconds): strings("auth.tooManyAttempts", ["wait": LoginThrottle.waitText(seconds)])
        case .tooManyAccounts(let seconds): strings("recovery.tooManyAccounts", ["wait": LoginThrottle.waitText(seconds)])
        case .recoveryUnavailable: strings("recovery.unavailable")
        case .resetLinkInvalid: strings("recovery.linkInvalid")
        case .providerNotConfigured(let name): strings("auth.providerNotConfigured", ["provider": name.displayName])
        case .invalidIDToken(let name): strings("auth.invalidIdToken", ["provider": name.displayName])
        case .linkRequired(let name): strings("auth.linkRequired", ["provider": name.displayName])
        case .identityLinked: strings("auth.identityLinked")
        case .providerUnavailable(let name): strings("auth.providerUnavailable", ["provider": name.displayName])
        }
    }

    /// The message again under the field it is about, by the API's member names; empty when it is about the whole
    /// form. (A wrong email-and-password pair names neither: which one is wrong is not told.)
    var fields: [String: String] {
        switch self {
        case .emailTaken: [AccountInput.Field.email.rawValue: message]
        case .currentPasswordIncorrect: ["currentPassword": message]
        case .deletePasswordIncorrect: ["password": message]
        default: [:]
        }
    }

    /// Whole seconds until a throttled sign-in may try again.
    var retryAfterSeconds: Int? {
        switch self {
        case .tooManyAttempts(let seconds), .tooManyAccounts(let seconds): seconds
        default: nil
        }
    }
}
