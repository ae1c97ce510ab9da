import ArgumentParser
import Foundation
import WDietClient

/// `wdiet client resolve`: answers "Keep Local / Use Server" for a profile changed on two devices.
struct ClientResolveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "resolve",
        abstract: "Resolve a profile conflict: keep this device's profile or use the server's (then `sync`)."
    )

    @OptionGroup var options: ClientStoreOptions
    @Flag(name: .customLong("keep-local")) var keepLocal = false
    @Flag(name: .customLong("use-server")) var useServer = false

    func validate() throws {
        guard keepLocal != useServer else { throw ValidationError("Give exactly one of --keep-local or --use-server") }
    }

    func run() throws {
        let store = try options.open()
        try store.resolveProfileConflict(keepLocal ? .keepLocal : .useServer)
        print(keepLocal ? "Keeping this device's profile; `wdiet client sync` sends it." : "Using the server's profile.")
    }
}
