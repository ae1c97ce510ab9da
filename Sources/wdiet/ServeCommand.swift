import ArgumentParser
import Foundation
import Hummingbird
import Logging
import WDietServer
import WDietStorage

/// `wdiet serve`: the web app and the JSON API on the embedded SQLite store, or on PostgreSQL.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the w-diet server: the web app and the JSON API (SIGTERM or Ctrl-C stops it gracefully)."
    )

    @Option(help: "Address to listen on.") var hostname = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8080
    @Option(help: "A SQLite file (created and migrated on start), or postgres://user[:password]@host[:port]/database for several servers on one PostgreSQL (migrated on start). Default: $\(StoreLocation.environmentVariable), then \(StoreLocation.defaultSQLitePath).")
    var database: String?
    @Option(help: "Folder with the SR28 files for the first-start import (default: $WDIET_FOOD_DATA, then ../shared/datasets/usda-sr28).")
    var from: String?
    @Flag(name: .customLong("secure-cookies"), help: "Mark session cookies Secure (when serving behind TLS).") var secureCookies = false
    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.") var logLevel = "info"
    @Flag(name: .customLong("trust-forwarded-for"), help: "Behind a reverse proxy: throttle sign-ins by the client address in the last X-Forwarded-For entry.")
    var trustForwardedFor = false
    @Option(name: .customLong("apple-client-id"), help: "Sign in with Apple: the Services ID or bundle ID (the tokens' aud). Default: $WDIET_APPLE_CLIENT_ID; off when unset.")
    var appleClientId: String?
    @Option(name: .customLong("google-client-id"), help: "Sign in with Google: the OAuth client ID (the tokens' aud). Default: $WDIET_GOOGLE_CLIENT_ID; off when unset.")
    var googleClientId: String?
    @Option(name: .customLong("apple-jwks-url"), help: "Apple's signing keys (default: $WDIET_APPLE_JWKS_URL, then \(ServerConfiguration.defaultAppleJWKSURL)).")
    var appleJWKSURL: String?
    @Option(name: .customLong("google-jwks-url"), help: "Google's signing keys (default: $WDIET_GOOGLE_JWKS_URL, then \(ServerConfiguration.defaultGoogleJWKSURL)).")
    var googleJWKSURL: String?
    @Option(name: .customLong("database-connections"), help: "On PostgreSQL: the most connections this process opens (default \(ServerConfiguration.defaultPostgresConnections)).")
    var databaseConnections = ServerConfiguration.defaultPostgresConnections
    @Option(name: .customLong("read-timeout"), help: "Seconds a client connection may send nothing while no request of it is being answered: idle between requests, an unfinished request head, a stalled body (default \(Int(ConnectionLimits.defaultReadTimeout))).")
    var readTimeout: Double = ConnectionLimits.defaultReadTimeout
    @Option(name: .customLong("connections-per-address"), help: "The most connections one client address may hold open; 0 for no limit (default \(ConnectionLimits.defaultPerAddress), or no limit with --trust-forwarded-for, where every connection comes from the proxy).")
    var connectionsPerAddress: Int?

    // Password recovery by email (docs/operations.md, "Email"); off while --smtp-host is unset.
    @Option(name: .customLong("smtp-host"), help: "Password-recovery emails: the SMTP server or relay (default: $WDIET_SMTP_HOST; recovery is off when unset).")
    var smtpHost: String?
    @Option(name: .customLong("smtp-port"), help: "The SMTP port (default: $WDIET_SMTP_PORT, then 587 for starttls, 465 for tls, 25 for none).")
    var smtpPort: Int?
    @Option(name: .customLong("smtp-security"), help: "starttls (clear text, then STARTTLS; never sends without it), tls (TLS from the first byte, port 465) or none (clear text: a relay on this machine). Default: $WDIET_SMTP_SECURITY, then tls on port 465, none to localhost, else starttls.")
    var smtpSecurity: String?
    @Option(name: .customLong("smtp-ca-file"), help: "A PEM file of the certificate authorities to trust for the SMTP server instead of the system's (default: $WDIET_SMTP_CA_FILE).")
    var smtpCAFile: String?
    @Option(name: .customLong("smtp-from"), help: "The sender of the emails (default: $WDIET_SMTP_FROM). Required with --smtp-host.")
    var smtpFrom: String?
    @Option(name: .customLong("smtp-username"), help: "The SMTP user for AUTH, sent only over TLS or to this machine (default: $WDIET_SMTP_USERNAME). The password only from $WDIET_SMTP_PASSWORD, never on the command line.")
    var smtpUsername: String?
    @Option(name: .customLong("public-url"), help: "The server's address as people reach it, for links in emails, e.g. https://diet.example.org (default: $WDIET_PUBLIC_URL). Required with --smtp-host.")
    var publicURL: String?

    /// Where Swift concurrency runs the handlers. `swift-pool` (the default): Swift's own cooperative pool;
    /// `event-loops`: on the event loops that read and write the connections (NIO's singleton group, which
    /// Hummingbird serves on), so a request is not handed from an event-loop thread to the pool and back. The
    /// default stays the pool until the benchmark shows what event loops gain (README, Benchmarks).
    @Option(help: "swift-pool (Swift's cooperative pool) or event-loops (handlers run on the threads that serve the connections; experimental).")
    var executor: Executor = .swiftPool

    enum Executor: String, CaseIterable, ExpressibleByArgument {
        case eventLoops = "event-loops"
        case swiftPool = "swift-pool"
    }

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port must be between 1 and 65535.") }
        guard (1...1_000).contains(databaseConnections) else { throw ValidationError("--database-connections must be between 1 and 1000.") }
        guard readTimeout >= 0.1, readTimeout <= 3_600 else { throw ValidationError("--read-timeout must be between 0.1 and 3600 seconds.") }
        if let connectionsPerAddress, !(0...100_000).contains(connectionsPerAddress) {
            throw ValidationError("--connections-per-address must be between 0 (no limit) and 100000.")
        }
        if let smtpPort, !(1...65_535).contains(smtpPort) { throw ValidationError("--smtp-port must be between 1 and 65535.") }
        if let smtpSecurity, SMTPSecurity(rawValue: smtpSecurity) == nil { throw ValidationError("--smtp-security must be starttls, tls or none.") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical.") }
        for (option, value) in [("--apple-jwks-url", appleJWKSURL), ("--google-jwks-url", googleJWKSURL)] {
            if let value, URL(string: value)?.scheme.map({ ["http", "https"].contains($0) }) != true {
                throw ValidationError("\(option) must be an http or https address.")
            }
        }
    }

    /// An option, else its environment variable; empty counts as unset.
    static func setting(_ option: String?, environment name: String) -> String? {
        let value = option ?? ProcessInfo.processInfo.environment[name]
        return value?.isEmpty == false ? value : nil
    }

    func run() async throws {
        var logger = Logger(label: "wdiet")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        // Read here, once; `buildApplication` opens it with `StoreLocation.open`, as every command opens its database.
        let location = try StoreLocation.resolve(option: database)
        var configuration = ServerConfiguration(
            hostname: hostname, port: port, databasePath: location.sqlitePath ?? StoreLocation.defaultSQLitePath,
            foodDataDirectory: FoodDataLocation.directory(from: from), secureCookies: secureCookies,
            trustForwardedFor: trustForwardedFor,
            appleClientId: Self.setting(appleClientId, environment: "WDIET_APPLE_CLIENT_ID"),
            googleClientId: Self.setting(googleClientId, environment: "WDIET_GOOGLE_CLIENT_ID"),
            appleJWKSURL: Self.setting(appleJWKSURL, environment: "WDIET_APPLE_JWKS_URL") ?? ServerConfiguration.defaultAppleJWKSURL,
            googleJWKSURL: Self.setting(googleJWKSURL, environment: "WDIET_GOOGLE_JWKS_URL") ?? ServerConfiguration.defaultGoogleJWKSURL,
            postgresURL: location.postgresURL
        )
        configuration.postgresConnections = databaseConnections
        let perAddress = connectionsPerAddress ?? (trustForwardedFor ? 0 : ConnectionLimits.defaultPerAddress)
        configuration.connectionLimits = ConnectionLimits(readTimeout: readTimeout, perAddress: perAddress == 0 ? nil : perAddress)
        if let host = Self.setting(smtpHost, environment: "WDIET_SMTP_HOST") {
            guard let from = Self.setting(smtpFrom, environment: "WDIET_SMTP_FROM"),
                  let url = Self.setting(publicURL, environment: "WDIET_PUBLIC_URL"),
                  URL(string: url)?.scheme.map({ ["http", "https"].contains($0) }) == true
            else {
                throw CommandFailure("Could not start: --smtp-host needs --smtp-from and --public-url (an http or https address)")
            }
            let port = smtpPort ?? Self.setting(nil, environment: "WDIET_SMTP_PORT").flatMap(Int.init)
            var security: SMTPSecurity?
            if let name = Self.setting(smtpSecurity, environment: "WDIET_SMTP_SECURITY") {
                guard let chosen = SMTPSecurity(rawValue: name) else {
                    throw CommandFailure("Could not start: --smtp-security (or $WDIET_SMTP_SECURITY) must be starttls, tls or none")
                }
                security = chosen
            }
            let smtp = SMTPSettings(
                host: host, port: port, from: from, security: security,
                caFile: Self.setting(smtpCAFile, environment: "WDIET_SMTP_CA_FILE"),
                username: Self.setting(smtpUsername, environment: "WDIET_SMTP_USERNAME"),
                password: Self.setting(nil, environment: "WDIET_SMTP_PASSWORD"))
            do {
                try smtp.validate()
            } catch {
                throw CommandFailure("Could not start: \(error)")
            }
            configuration.smtp = smtp
            configuration.publicURL = url
        }
        // One server per SQLite file: taken before the file is opened, held until the process ends.
        var serveLock: ServeLock?
        if let path = location.sqlitePath {
            do {
                serveLock = try ServeLock.acquire(databasePath: path)
            } catch {
                throw CommandFailure("Could not start: \(error)")
            }
        }
        let app: any ApplicationProtocol
        do {
            app = try await buildApplication(configuration: configuration, logger: logger)
        } catch {
            throw CommandFailure("Could not start: \(error)")
        }
        defer { withExtendedLifetime(serveLock) {} }
        try await app.runService()
    }
}
