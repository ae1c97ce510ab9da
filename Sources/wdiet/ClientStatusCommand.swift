import ArgumentParser
import Foundation
import WDietCore
import WDietStore

/// `wdiet client status`: the session, pending changes, last sync, and what needs the user's attention.
struct ClientStatusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the server, pending changes, the last sync and conflicts."
    )

    @OptionGroup var options: ClientStoreOptions

    func run() throws {
        let store = try options.open()
        let status = try store.status()
        if let account = try store.account() {
            print("Signed in as \(account.email ?? "a guest") on \(account.server.absoluteString)")
        } else {
            print("Not signed in (`wdiet client login --server URL …`)")
        }
        print("Store: \(options.path)")
        print("Pending changes: \(status.pending)\(status.parked.isEmpty ? "" : " (\(status.parked.count) refused by the server)")")
        print("Last sync: \(status.lastSyncAt.map(SyncCoding.instantText) ?? "never")")
        for parked in status.parked {
            print("Refused: \(parked.key.noun) \(parked.key.id): \(parked.message)")
        }
        for notice in status.notices {
            print("Notice: \(notice.key.noun) \(notice.key.id): \(notice.message)")
        }
        if let conflict = status.profileConflict {
            print("Profile conflict: this device has \(Self.summary(conflict.local)); the server has \(conflict.server?.profile.map(Self.summary) ?? "no profile").")
            print("  Choose with `wdiet client resolve --keep-local` or `wdiet client resolve --use-server`.")
        } else {
            print("Conflicts: none")
        }
    }

    static func summary(_ profile: Profile) -> String {
        "\(profile.weightKg) kg, \(profile.heightCm) cm, \(profile.activity.rawValue), goal \(profile.goal.rawValue)"
    }
}
