import WDietStore

/// A local edit refused before it is stored: the message is the one the forms and the server use.
public enum ClientError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A value breaks the rules (`StoreValidation`'s message).
    case invalid(String)
    /// Meals and weights are dated in the profile's time zone, so they need a profile (the server's `profile_missing`).
    case profileRequired
    case notFound(String)
    case noProfileConflict

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .profileRequired: "Set up your profile before logging meals and weights"
        case .notFound(let what): "No \(what) with this id on this device"
        case .noProfileConflict: "There is no profile conflict to resolve"
        }
    }

    init(_ error: StoreError) {
        self = .invalid(error.description)
    }
}
