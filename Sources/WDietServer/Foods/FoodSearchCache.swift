import Foundation
import Hummingbird
import Synchronization

/// Recent food searches, as the JSON bytes sent, for the next user who types the same thing. The catalog does not
/// change while the server runs (it is imported before the server listens), and as-you-type search sends the
/// same few thousand prefixes over and over ("ch", "chi", "chick"), so most searches are answered without SQLite
/// or the JSON encoder. Entries live `timeToLive` at most, so a catalog re-imported from outside (`wdiet
/// import-foods` on a live file) shows within minutes. Errors (no catalog) are never cached.
final class FoodSearchCache: Sendable {
    static let timeToLive: TimeInterval = 10 * 60
    /// A result page is 1–15 KB; 4,096 of them stay under ~60 MB at the very worst.
    static let capacity = 4_096

    private struct Entry {
        var body: ByteBuffer
        var storedAt: Date
    }

    private let entries = Mutex<[String: Entry]>([:])

    static func key(query: String, limit: Int) -> String { "\(limit) \(query)" }

    func body(for key: String, at now: Date) -> ByteBuffer? {
        entries.withLock { entries in
            guard let entry = entries[key] else { return nil }
            guard now.timeIntervalSince(entry.storedAt) < Self.timeToLive, entry.storedAt <= now else {
                entries[key] = nil
                return nil
            }
            return entry.body
        }
    }

    func store(_ body: ByteBuffer, for key: String, at now: Date) {
        entries.withLock { entries in
            if entries.count >= Self.capacity, entries[key] == nil {
                // Any entry will do: the store answers again for whatever is dropped.
                entries.remove(at: entries.startIndex)
            }
            entries[key] = Entry(body: body, storedAt: now)
        }
    }
}
