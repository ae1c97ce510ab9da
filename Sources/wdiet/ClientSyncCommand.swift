import ArgumentParser
import Foundation

/// `wdiet client sync`: pushes the outbox and pulls the server's changes; offline it says so and keeps everything.
struct ClientSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Send this device's changes to the server and fetch the others' (exit 1, nothing lost, when offline)."
    )

    @OptionGroup var options: ClientStoreOptions

    func run() async throws {
        let store = try options.open()
        let engine = try ClientSync.engine(for: store)
        let state = await engine.sync()
        print(try ClientSync.report(state, store: store))
        for notice in try store.notices() {
            print("! \(notice.key.noun.capitalized) \(notice.key.id): \(notice.message)")
        }
        if try store.profileConflict() != nil {
            print("! Your profile was changed on another device: choose with `wdiet client resolve --keep-local` or `--use-server`.")
        }
    }
}
