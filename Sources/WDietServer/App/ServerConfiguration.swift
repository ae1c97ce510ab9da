import Foundation
import WDietStorage

/// Everything the server is configured with, built once at the edge (`wdiet serve` reads options and environment);
/// the library itself never reads the environment.
public struct ServerConfiguration: Sendable, Equatable {
    public var hostname: String
    public var port: Int
    /// The SQLite file; created and migrated on start. Not used when `postgresURL` is set.
    public var databasePath: String
    /// A PostgreSQL database (`postgres://user[:password]@host[:port]/db`) instead of the SQLite file: for
    /// deployments with several `wdiet serve` processes behind a load balancer. Migrated on start.
    public var postgresURL: String?
    /// Where the SR28 files are, for the automatic import on first start; nil to skip it.
    public var foodDataDirectory: URL?
    /// Marks session cookies `Secure`: set when the server runs behind TLS.
    public var secureCookies: Bool
    /// bcrypt's cost factor; 12 in production (≥ 12 is required), lower only in tests.
    public var bcryptCost: UInt8
    /// Behind a reverse proxy or load balancer: take the client's address from the last `X-Forwarded-For` entry
    /// (the one the proxy appended) for sign-in throttling. Off by default: a client could write the header itself.
    public var trustForwardedFor: Bool
    /// Sign in with Apple: the Services ID or bundle ID tokens are issued to (their `aud`); nil turns it off.
    public var appleClientId: String?
    /// Sign in with Google: the OAuth client ID (`aud`); nil turns it off.
    public var googleClientId: String?
    public var appleJWKSURL: String
    public var googleJWKSURL: String
    /// The most connections this process keeps open to PostgreSQL (each is a server process there): a request
    /// waits for a free one. Several `wdiet serve` processes multiply it against PostgreSQL's `max_connections`.
    /// 8 by default: on the 2-core benchmark machine 8 answered dashboards with a P99 of 10.9–12.0 ms against
    /// 14.2–16.8 ms with 20 (README, "Server over loopback on PostgreSQL"); past the cores, more connections only
    /// add PostgreSQL processes that wait for the same CPUs.
    public var postgresConnections: Int = Self.defaultPostgresConnections
    public static let defaultPostgresConnections = 8
    /// How long a JWKS fetch may take before sign-in answers 503 (tests on a loaded machine allow more).
    public var jwksTimeout: TimeInterval = 5
    /// Read timeout and connection caps per client address and in all (issue 21; docs/operations.md).
    public var connectionLimits = ConnectionLimits()
    /// Where password-recovery emails go (`wdiet serve --smtp-host …`); nil turns "Forgot password?" off (it says to
    /// ask the administrator).
    public var smtp: SMTPSettings?
    /// The server's address as people reach it ("https://diet.example.org"), for links in emails. Never taken from
    /// a request's Host header, which a client writes.
    public var publicURL: String?

    /// Where the database is, for `StoreLocation.open`: `postgresURL` when set, else the SQLite file.
    public var storeLocation: StoreLocation {
        postgresURL.map { .postgres(url: $0) } ?? .sqlite(path: databasePath)
    }

    /// Several server processes may share a PostgreSQL database, so nothing about sessions is cached in one of them.
    var sessionCacheTimeToLive: TimeInterval { postgresURL == nil ? SessionCache.defaultTimeToLive : 0 }
    /// There it keeps hints instead, for writes that check the session in their own statement (`DeferredSessionCheck`).
    var sessionHintTimeToLive: TimeInterval { postgresURL == nil ? 0 : SessionCache.defaultHintTimeToLive }

    public static let defaultAppleJWKSURL = "https://appleid.apple.com/auth/keys"
    public static let defaultGoogleJWKSURL = "https://www.googleapis.com/oauth2/v3/certs"

    public init(
        hostname: String = "127.0.0.1", port: Int = 8080, databasePath: String = "wdiet.sqlite",
        foodDataDirectory: URL? = nil, secureCookies: Bool = false, bcryptCost: UInt8 = 12,
        trustForwardedFor: Bool = false, appleClientId: String? = nil, googleClientId: String? = nil,
        appleJWKSURL: String = ServerConfiguration.defaultAppleJWKSURL, googleJWKSURL: String = ServerConfiguration.defaultGoogleJWKSURL,
        postgresURL: String? = nil
    ) {
        self.postgresURL = postgresURL
        self.trustForwardedFor = trustForwardedFor
        self.appleClientId = appleClientId
        self.googleClientId = googleClientId
        self.appleJWKSURL = appleJWKSURL
        self.googleJWKSURL = googleJWKSURL
        self.hostname = hostname
        self.port = port
        self.databasePath = databasePath
        self.foodDataDirectory = foodDataDirectory
        self.secureCookies = secureCookies
        self.bcryptCost = bcryptCost
    }
}
