import Foundation

/// Everything the server is configured with, built once at the edge (`wdiet serve` reads options and environment);
/// the library itself never reads the environment.
public struct ServerConfiguration: Sendable, Equatable {
    public var hostname: String
    public var port: Int
    /// The SQLite file; created and migrated on start.
    public var databasePath: String
    /// Where the SR28 files are, for the automatic import on first start; nil to skip it.
    public var foodDataDirectory: URL?
    /// Marks session cookies `Secure`: set when the server runs behind TLS.
    public var secureCookies: Bool
    /// bcrypt's cost factor; 12 in production (≥ 12 is required), lower only in tests.
    public var bcryptCost: UInt8

    public init(
        hostname: String = "127.0.0.1", port: Int = 8080, databasePath: String = "wdiet.sqlite",
        foodDataDirectory: URL? = nil, secureCookies: Bool = false, bcryptCost: UInt8 = 12
    ) {
        self.hostname = hostname
        self.port = port
        self.databasePath = databasePath
        self.foodDataDirectory = foodDataDirectory
        self.secureCookies = secureCookies
        self.bcryptCost = bcryptCost
    }
}
