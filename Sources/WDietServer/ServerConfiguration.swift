/// The server library: `buildApplication(configuration:)` arrives with the server issue. For now it holds the
/// configuration value that `wdiet serve` will build at the edge from options and environment.
public struct ServerConfiguration: Sendable, Equatable {
    public var hostname: String
    public var port: Int
    public var databasePath: String

    public init(hostname: String = "127.0.0.1", port: Int = 8080, databasePath: String = "wdiet.sqlite") {
        self.hostname = hostname
        self.port = port
        self.databasePath = databasePath
    }
}
