import ArgumentParser
import Foundation
import Hummingbird
import Logging
import WDietServer

/// `wdiet serve`: the web app and the JSON API on the embedded SQLite store.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the w-diet server: the web app and the JSON API (SIGTERM or Ctrl-C stops it gracefully)."
    )

    @Option(help: "Address to listen on.") var hostname = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8080
    @Option(help: "SQLite database file (created and migrated on start).") var database = DataLocation.defaultDatabasePath
    @Option(help: "Folder with the SR28 files for the first-start import (default: $WDIET_FOOD_DATA, then ../shared/datasets/usda-sr28).")
    var from: String?
    @Flag(name: .customLong("secure-cookies"), help: "Mark session cookies Secure (when serving behind TLS).") var secureCookies = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "info"

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be between 1 and 65535.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.") }
    }

    func run() async throws {
        var logger = Logger(label: "wdiet")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        let configuration = ServerConfiguration(
            hostname: hostname, port: port, databasePath: database,
            foodDataDirectory: DataLocation.foodDataDirectory(from: from), secureCookies: secureCookies
        )
        let app: any ApplicationProtocol
        do {
            app = try await buildApplication(configuration: configuration, logger: logger)
        } catch {
            throw DataLocation.Failure("Could not start: \(error)")
        }
        try await app.runService()
    }
}
