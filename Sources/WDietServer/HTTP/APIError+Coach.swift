import Foundation
import WDietCore
import WDietStore

extension APIError {
    static let profileMessage = "No profile yet: finish onboarding first."

    /// A read that needs the profile (the profile itself, the plan, the dashboard, a day's meals).
    static let profileMissing = APIError(.notFound, code: "profile_missing", message: profileMessage)

    /// A write that needs the profile's time zone to know which day it belongs to.
    static let profileRequired = APIError(.conflict, code: "profile_missing", message: profileMessage)

    /// 422 with messages keyed by the body's member names.
    static func invalidFields(_ fields: [String: String]) -> APIError {
        .invalid(InvalidInput(fields).message, fields: fields)
    }
}
