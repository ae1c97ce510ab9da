import HTTPTypes
import Hummingbird

/// How the server answers an account refusal: the JSON API with the statuses and codes its clients know
/// (docs/api.md), the sign-in, sign-up and Settings forms with the same status and the messages beside their fields.
extension AccountRefusal {
    var status: HTTPResponse.Status {
        switch self {
        case .invalidCredentials, .currentPasswordIncorrect, .deletePasswordIncorrect, .notSignedIn, .invalidIDToken: .unauthorized
        case .emailTaken, .notAGuest, .noPassword, .linkRequired, .identityLinked: .conflict
        case .tooManyAttempts, .tooManyAccounts: .tooManyRequests
        case .recoveryUnavailable: .serviceUnavailable
        case .resetLinkInvalid: .badRequest
        case .providerNotConfigured: .notFound
        case .providerUnavailable: .serviceUnavailable
        }
    }

    /// The API's stable code for programs.
    var code: String {
        switch self {
        case .invalidCredentials, .currentPasswordIncorrect, .deletePasswordIncorrect: "invalid_credentials"
        case .emailTaken: "email_taken"
        case .notAGuest: "not_a_guest"
        case .noPassword: "no_password"
        case .notSignedIn: "unauthorized"
        case .tooManyAttempts: "too_many_attempts"
        case .tooManyAccounts: "too_many_accounts"
        case .recoveryUnavailable: "recovery_unavailable"
        case .resetLinkInvalid: "reset_link_invalid"
        case .providerNotConfigured: "provider_not_configured"
        case .invalidIDToken: "invalid_id_token"
        case .linkRequired: "link_required"
        case .identityLinked: "identity_linked"
        case .providerUnavailable: "provider_unavailable"
        }
    }
}

extension APIError {
    init(_ refusal: AccountRefusal) {
        var headers: HTTPFields = [:]
        if let seconds = refusal.retryAfterSeconds { headers[.retryAfter] = String(seconds) }
        self.init(refusal.status, code: refusal.code, message: refusal.message, fields: refusal.fields, headers: headers)
    }
}

/// An account form refused by `AccountService`, as its page shows it again: the messages beside their fields (by
/// the API's member names), else `message` above the form; the status, and for a throttled sign-in Retry-After.
struct RefusedAccountForm {
    var fields: [String: String]
    var message: String
    var status: HTTPResponse.Status
    var retryAfterSeconds: Int?

    /// Nil for an error that is no refusal of the person's input (a store failure): the error page shows that.
    init?(_ error: any Error) {
        switch error {
        case let invalid as InvalidInput:
            self.init(fields: invalid.fields, message: invalid.message, status: .unprocessableContent)
        case let refusal as AccountRefusal:
            self.init(fields: refusal.fields, message: refusal.message, status: refusal.status, retryAfterSeconds: refusal.retryAfterSeconds)
        default:
            return nil
        }
    }

    init(fields: [String: String], message: String, status: HTTPResponse.Status, retryAfterSeconds: Int? = nil) {
        self.fields = fields
        self.message = message
        self.status = status
        self.retryAfterSeconds = retryAfterSeconds
    }

    /// The message above the form, when none of `formFields` shows one beside it.
    func formMessage(besides formFields: String...) -> String? {
        formFields.contains { fields[$0] != nil } ? nil : message
    }

    /// `response` with Retry-After when the sign-in was throttled.
    func withRetryAfter(_ response: Response) -> Response {
        guard let retryAfterSeconds else { return response }
        var response = response
        response.headers[.retryAfter] = String(retryAfterSeconds)
        return response
    }
}
