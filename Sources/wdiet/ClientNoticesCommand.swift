import ArgumentParser
import Foundation
import WDietStore

/// `wdiet client notices`: what the sync had to tell (edits lost to another device, refused changes), with the
/// values the user had, until dismissed.
struct ClientNoticesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notices",
        abstract: "List what the sync had to tell you (lost edits, refused changes); --dismiss clears them once read."
    )

    @OptionGroup var options: ClientStoreOptions
    @Flag(help: "Mark the listed notices as read.") var dismiss = false

    func run() throws {
        let store = try options.open()
        let notices = try store.notices()
        if notices.isEmpty { print("No notices.") }
        for notice in notices {
            print("\(SyncCoding.instantText(notice.createdAt))  \(notice.key.noun) \(notice.key.id): \(notice.message)")
            if let local = notice.localJSON { print("  yours:  \(local)") }
            if let server = notice.server {
                print("  kept:   \(server.deletedAt == nil ? "version \(server.version)" : "deleted (version \(server.version))")")
            }
            if dismiss { try store.dismissNotice(notice.seq) }
        }
        if dismiss && !notices.isEmpty { print("Dismissed \(notices.count == 1 ? "1 notice" : "\(notices.count) notices").") }
    }
}
