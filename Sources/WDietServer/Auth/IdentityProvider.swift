import Foundation

/// Sign in with Apple or Google, as this server is configured for it: whose ID tokens it accepts and how it checks
/// them. Both sign with RS256 and publish their keys as a JWKS.
struct IdentityProvider: Sendable {
    enum Name: String, Sendable, CaseIterable {
        case apple, google

        /// "Apple", "Google": the same in every language.
        var displayName: String {
            switch self {
            case .apple: "Apple"
            case .google: "Google"
            }
        }
    }

    var name: Name
    /// Our client id, which every accepted token must carry as its `aud`.
    var clientId: String
    /// The `iss` values the provider documents. The first is the one identities are stored under, so one person
    /// is one identity whichever spelling a token uses.
    var issuers: [String]
    var jwksURL: String
    /// Apple's tokens carry the SHA-256 (lowercase hex) of the nonce the app generated; Google's carry it as is.
    var nonceIsHashed: Bool

    var displayName: String { name.displayName }

    var canonicalIssuer: String { issuers[0] }

    /// https://developer.apple.com/documentation/sign_in_with_apple/verifying-a-user
    static func apple(clientId: String, jwksURL: String) -> IdentityProvider {
        IdentityProvider(name: .apple, clientId: clientId, issuers: ["https://appleid.apple.com"], jwksURL: jwksURL, nonceIsHashed: true)
    }

    /// https://developers.google.com/identity/openid-connect/openid-connect#validatinganidtoken
    static func google(clientId: String, jwksURL: String) -> IdentityProvider {
        IdentityProvider(
            name: .google, clientId: clientId, issuers: ["https://accounts.google.com", "accounts.google.com"],
            jwksURL: jwksURL, nonceIsHashed: false
        )
    }

    /// The providers the configuration turns on (a client id each).
    static func configured(_ configuration: ServerConfiguration) -> [Name: IdentityProvider] {
        var providers: [Name: IdentityProvider] = [:]
        if let id = configuration.appleClientId, !id.isEmpty {
            providers[.apple] = .apple(clientId: id, jwksURL: configuration.appleJWKSURL)
        }
        if let id = configuration.googleClientId, !id.isEmpty {
            providers[.google] = .google(clientId: id, jwksURL: configuration.googleJWKSURL)
        }
        return providers
    }
}
