import ArgumentParser
import Foundation
import WDietClient
import WDietCore

/// `wdiet client log-weight`: a weight entry in kg or lb, stored locally and queued for the server.
struct ClientLogWeightCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-weight",
        abstract: "Log a weight on this device, in kg or lb (works offline; `sync` sends it)."
    )

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "Weight in kilograms.") var kg: Double?
    @Option(help: "Weight in pounds.") var lb: Double?
    @Option(help: "When, as an ISO 8601 instant (default: now).") var at: String?

    func validate() throws {
        guard (kg == nil) != (lb == nil) else { throw ValidationError("Give the weight with exactly one of --kg or --lb") }
    }

    func run() throws {
        let kilograms = kg ?? Units.kilograms(fromPounds: lb ?? 0)
        let entry = WeightEntry(kg: kilograms, loggedAt: try ClientFormat.instant(at))
        let store = try options.open()
        try store.saveWeight(entry)
        print("Logged \(ClientFormat.number(kilograms)) kg. \(try ClientPending.line(store))")
    }
}

enum ClientPending {
    static func line(_ store: ClientStore) throws -> String {
        let pending = try store.status().pending
        return pending == 1 ? "1 change waits for the next sync." : "\(pending) changes wait for the next sync."
    }
}
