import Foundation
import WDietCore
import WDietStore

extension APIError {
    static var profileMessage: String { Strings.current("errors.profileMissing") }

    /// A read that needs the profile (the profile itself, the plan, the dashboard, a day's meals).
    static var profileMissing: APIError { APIError(.notFound, code: "profile_missing", message: profileMessage) }

    /// A write that needs the profile's time zone to know which day it belongs to.
    static var profileRequired: APIError { APIError(.conflict, code: "profile_missing", message: profileMessage) }
}
