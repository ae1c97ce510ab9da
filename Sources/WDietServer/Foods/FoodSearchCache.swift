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

    private struct Storage {
        var entries: [String: Entry] = [:]
        /// The keys in the order they were stored, oldest first from `next`: the one dropped when full. (Dropping
        /// the dictionary's first entry instead made its lookups slow: ~1.3 % of an uncached search's CPU each.)
        var order = [String?](repeating: nil, count: FoodSearchCache.capacity)
        var next = 0
    }

    private let storage = Mutex(Storage())

    static func key(query: String, limit: Int) -> String { "\(limit) \(query)" }

    func body(for key: String, at now: Date) -> ByteBuffer? {
        storage.withLock { storage in
            guard let entry = storage.entries[key] else { return nil }
            guard now.timeIntervalSince(entry.storedAt) < Self.timeToLive, entry.storedAt <= now else {
                storage.entries[key] = nil
                return nil
            }
            return entry.body
        }
    }

    /// At most `capacity` entries: a new key takes the place of the oldest stored (the store answers again for
    /// whatever is dropped).
    func store(_ body: ByteBuffer, for key: String, at now: Date) {
        storage.withLock { storage in
            guard storage.entries.updateValue(Entry(body: body, storedAt: now), forKey: key) == nil else { return }
            if let oldest = storage.order[storage.next], oldest != key { storage.entries[oldest] = nil }
            storage.order[storage.next] = key
            storage.next = (storage.next + 1) % Self.capacity
        }
    }

    var count: Int { storage.withLock { $0.entries.count } }
}
