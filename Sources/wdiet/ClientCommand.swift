import ArgumentParser
import Foundation
import WDietClient
import WDietCore
import WDietStore

/// `wdiet client …`: the offline-first client engine (`WDietClient`) on the command line. Every command writes to
/// the local store first and works without a network; `sync` exchanges the outbox with the server.
struct ClientCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "client",
        abstract: "Use w-diet offline-first from the command line: log locally, sync with a server later.",
        discussion: """
            The client keeps its data, outbox, pull cursor and session token in one SQLite file: --store PATH, \
            else $WDIET_CLIENT_STORE, else ~/.wdiet/client.sqlite.
            """,
        subcommands: [
            ClientLoginCommand.self, ClientProfileCommand.self, ClientLogMealCommand.self, ClientLogWeightCommand.self,
            ClientTodayCommand.self, ClientCopyCommand.self, ClientRecentsCommand.self, ClientFavouritesCommand.self,
            ClientSavedMealsCommand.self, ClientJournalCommand.self, ClientChallengeCommand.self, ClientSyncCommand.self, ClientStatusCommand.self, ClientNoticesCommand.self, ClientResolveCommand.self,
        ]
    )
}

/// The option every client command takes, and opening the store it names.
struct ClientStoreOptions: ParsableArguments {
    @Option(help: "The client's database file (default: $WDIET_CLIENT_STORE or ~/.wdiet/client.sqlite).")
    var store: String?

    var path: String {
        if let store { return store }
        if let fromEnvironment = ProcessInfo.processInfo.environment["WDIET_CLIENT_STORE"], !fromEnvironment.isEmpty {
            return fromEnvironment
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".wdiet/client.sqlite").path
    }

    func open() throws -> ClientStore {
        let path = self.path
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            return try ClientStore(path: path)
        } catch {
            throw CommandFailure("cannot open the client store \(path): \(error)")
        }
    }
}

/// Sync as the commands do it: a few quick retries, then report and keep everything for the next time.
enum ClientSync {
    static func engine(for store: ClientStore) throws -> SyncEngine {
        guard let account = try store.account() else {
            throw CommandFailure("not signed in: run `wdiet client login --server URL …` first")
        }
        return SyncEngine(
            store: store, transport: HTTPSyncTransport(server: account.server, token: account.token, timeout: 15),
            policy: .init(backoff: Backoff(base: 0.5, cap: 2), maxRetries: 2))
    }

    /// One line about the outcome; throws (exit 1) when the sync did not complete.
    static func report(_ state: SyncEngine.State, store: ClientStore) throws -> String {
        let pending = try store.status().pending
        let waiting = pending == 1 ? "1 change waits" : "\(pending) changes wait"
        switch state {
        case .upToDate:
            var line = "Synced."
            if pending > 0 { line += " \(waiting) for you (see `wdiet client status`)." }
            return line
        case .offline(let reason):
            throw CommandFailure("offline: \(reason). Nothing is lost: \(waiting) on this device for the next sync.")
        case .serverUnavailable(let reason):
            throw CommandFailure("the server is not answering (\(reason)). Nothing is lost: \(waiting) on this device.")
        case .signedOut:
            throw CommandFailure("the session has ended: sign in again with `wdiet client login`. Nothing is lost: \(waiting).")
        case .failed(let reason):
            throw CommandFailure("sync failed: \(reason)")
        case .idle, .syncing:
            return "Sync in progress."
        }
    }
}

/// How the client commands read and print instants and dates.
enum ClientFormat {
    /// `--at`: an ISO 8601 instant (`2026-03-01T07:30:00Z`, with an offset, or with fractional seconds).
    static func instant(_ text: String?, option: String = "--at") throws -> Date {
        guard let text else { return Date() }
        guard let date = SyncCoding.instant(from: text) else {
            throw ValidationError("\(option) must be an instant such as 2026-03-01T07:30:00Z, not '\(text)'")
        }
        return date
    }

    static func time(_ date: Date, in zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
