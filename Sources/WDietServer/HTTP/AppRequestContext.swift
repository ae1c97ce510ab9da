import Foundation
import WDietStore
import Hummingbird
import NIOCore
import WDietCore

/// The context of every request. `userId` is set by the authentication middleware when the request carries a
/// valid session; routes that need a user take `AuthenticatedContext` instead, which cannot exist without one.
public struct AppRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    public var userId: UUID?
    /// The user's data version read with the session (PostgreSQL), for the dashboard's kept inputs; see `AccountSession`.
    var userDataVersion: Int64?
    /// What the session lookup saw of the user's profile (PostgreSQL); see `ProfileStore.profile(userId:seen:)`.
    var profileSeen: ProfileSeen?
    /// The session token when the user came in with the web cookie; the CSRF token is derived from it.
    var webSessionToken: String?
    /// The language the signed-in account chose in Settings, read with the session; nil to follow the browser.
    /// `AccountSettingsMiddleware` runs the rest of the request in it.
    var accountLanguage: Language?
    /// The theme the signed-in account chose in Settings, read with the session; nil for Auto.
    /// `AccountSettingsMiddleware` makes it `PageTheme.chosen` for the pages it renders.
    var accountAppearance: Appearance?
    /// The peer's IP address (a proxy's, behind one; see `ClientAddress`).
    var remoteAddress: String?
    /// A web form that `CSRFMiddleware` read and checked (see `WebRequestContext`).
    var verifiedForm: WebForm?

    public init(source: Source) {
        coreContext = .init(source: source)
        userId = nil
        userDataVersion = nil
        profileSeen = nil
        webSessionToken = nil
        accountLanguage = nil
        accountAppearance = nil
        verifiedForm = nil
        remoteAddress = source.channel.remoteAddress?.ipAddress
    }

    public var requestDecoder: JSONDecoder { APICoding.decoder }
    public var responseEncoder: JSONEncoder { APICoding.encoder }
}

/// A request from a signed-in user (an account or a guest). Built from `AppRequestContext` by a router group;
/// without a user the request ends with 401 before any handler runs.
public struct AuthenticatedContext: ChildRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let userId: UUID
    var userDataVersion: Int64?
    var profileSeen: ProfileSeen?
    var remoteAddress: String?

    public init(context: AppRequestContext) throws {
        guard let userId = context.userId else { throw APIError.unauthorized }
        coreContext = context.coreContext
        self.userId = userId
        userDataVersion = context.userDataVersion
        profileSeen = context.profileSeen
        remoteAddress = context.remoteAddress
    }

    public var requestDecoder: JSONDecoder { APICoding.decoder }
    public var responseEncoder: JSONEncoder { APICoding.encoder }
}

/// JSON as the API speaks it: instants in ISO 8601 UTC with milliseconds, keys sorted for stable output.
/// One encoder and one decoder for the process (they are thread-safe once configured); building them per request
/// showed in profiles.
enum APICoding {
    static var encoder: JSONEncoder { WireFormat.jsonEncoder }
    static var decoder: JSONDecoder { WireFormat.jsonDecoder }

    /// An instant as the API reads it: ISO 8601 with or without fractional seconds, to the millisecond as sync and
    /// the stores read it (`WireFormat`); nil for anything else.
    static func instant(from text: String) -> Date? { WireFormat.instant(from: text) }
}
