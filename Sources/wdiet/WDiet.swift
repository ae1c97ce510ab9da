import ArgumentParser
import Foundation
import WDietServer

@main
struct WDiet: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wdiet",
        abstract: "w-diet: a science-based weight-loss coach and nutrition tracker.",
        subcommands: [ServeCommand.self, MigrateCommand.self, PlanCommand.self, ImportFoodsCommand.self, FoodsCommand.self, MetricsCommand.self, ClientCommand.self, LabelCommand.self]
    )

    /// Parses and runs like ArgumentParser's own `main`, but reports a failure as one line on stderr
    /// (no usage dump, never a stack trace) with a non-zero exit code.
    static func main() async {
        do {
            var command = try parseAsRoot()
            // Before the server's first task: see `ServeCommand.executor`.
            if let serve = command as? ServeCommand, serve.executor == .eventLoops {
                guard ServerExecutor.installEventLoopsAsGlobalExecutor() else {
                    throw CommandFailure("Could not run Swift concurrency on the server's event loops; try --executor swift-pool.")
                }
            }
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
                if !message.isEmpty { FileHandle.standardError.write(Data("wdiet: \(message)\n".utf8)) }
            }
            Foundation.exit(code.rawValue)
        }
    }
}
