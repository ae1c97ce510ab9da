import ArgumentParser
import Foundation

/// `wdiet-dev`: tools for the people who work on w-diet, kept out of the product's `wdiet`. It builds on the stores
/// and WDietStorage, never on the server: a bench measures the stores' work, and a seed writes through the stores
/// what the server would have written.
@main
struct WDietDev: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wdiet-dev",
        abstract: "w-diet developer tools: in-process benchmarks and a seeded population for the load benchmark.",
        subcommands: [BenchCommand.self, SeedCommand.self, LabelAccuracyCommand.self]
    )

    /// As `wdiet` does: a failure is one line on stderr (no usage dump, never a stack trace), exit code non-zero.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
            } else {
                let message = message(for: error)
                if !message.isEmpty { FileHandle.standardError.write(Data("wdiet-dev: \(message)\n".utf8)) }
            }
            Foundation.exit(code.rawValue)
        }
    }
}

/// A problem reported as one line (through `WDietDev.main`), exit code 1. A database's problems are `StoreFailure`s.
struct CommandFailure: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
