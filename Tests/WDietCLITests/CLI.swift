import Foundation
import WDietTestSupport

/// Runs the `wdiet` binary (or the developer tool `wdiet-dev`) that `swift test` built next to the test bundle.
enum CLI {
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
        var stderrLines: [Substring] { stderr.split(separator: "\n") }
    }

    /// The product's command line.
    static let product = "wdiet"
    /// The developer tools: `bench` and `seed`.
    static let developerTool = "wdiet-dev"

    static func binary(_ name: String) -> URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(name)
    }

    /// The package root, for the default `../shared/datasets/usda-sr28`.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs the binary and waits for it on a thread of its own: waiting on a Swift concurrency thread would hold
    /// one of the pool's few threads (two on this machine) for the whole run, and in-process test servers that
    /// answer other tests' requests on that pool then starve (a sign-in timed out after 30 s under the full suite).
    static func run(
        _ arguments: [String], binary: String = product, in directory: URL = packageRoot, environment: [String: String] = [:]
    ) async throws -> Output {
        try await OwnThread.run { try runBlocking(binary, arguments, in: directory, environment: environment) }
    }

    private static func runBlocking(_ binary: String, _ arguments: [String], in directory: URL, environment: [String: String]) throws -> Output {
        let process = Process()
        process.executableURL = Self.binary(binary)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var env = ProcessInfo.processInfo.environment
        // Only what a test passes: a database or food folder of the shell running the tests is not the test's.
        env.removeValue(forKey: "WDIET_FOOD_DATA")
        env.removeValue(forKey: "WDIET_DATABASE_URL")
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static var foodDataDirectory: URL {
        packageRoot.deletingLastPathComponent().appendingPathComponent("shared/datasets/usda-sr28")
    }
}
