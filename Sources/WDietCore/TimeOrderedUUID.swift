import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ids w-diet makes for new rows (a meal, a weight, an analytics event; on the server and in clients), as
/// time-ordered version 7 UUIDs (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits.
///
/// Why time-ordered: every table keys its rows by id, and a random (version 4) id lands on a random leaf of the
/// id index, so each save dirtied one more page of a 1.8-million-row index, written whole to the WAL at commit
/// (`pwrite` was a quarter of a meal save's CPU). Ids made in the same few milliseconds share the index's last
/// leaf, and a group commit writes it once. Ids from other clients stay whatever those clients made.
///
/// Why not `UUID()`: on Linux it opens, reads and closes /dev/urandom for every id (three system calls, about
/// 4.5 µs of CPU, seen in perf profiles); this takes the same kernel randomness (`arc4random_buf`, which is
/// getrandom on Linux) 4 KB at a time and hands it out 16 bytes per id.
public enum TimeOrderedUUID {
    private struct Pool {
        var bytes = [UInt8](repeating: 0, count: 4_096)
        /// The next unused byte; at the end, the pool is refilled first.
        var next = 4_096
    }

    private static let pool = Mutex(Pool())

    /// A version 7 id for `now` (the wall clock; tests pass their own instant).
    public static func make(now: Date = Date()) -> UUID {
        var bytes: uuid_t = pool.withLock { pool in
            if pool.next == pool.bytes.count {
                pool.bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
                pool.next = 0
            }
            defer { pool.next += 16 }
            return pool.bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: pool.next, as: uuid_t.self) }
        }
        // Before 1970 there is nothing to order: such a clock gives 0.
        let milliseconds = UInt64(max(0, (now.timeIntervalSince1970 * 1_000).rounded(.down)))
        bytes.0 = UInt8(truncatingIfNeeded: milliseconds >> 40)
        bytes.1 = UInt8(truncatingIfNeeded: milliseconds >> 32)
        bytes.2 = UInt8(truncatingIfNeeded: milliseconds >> 24)
        bytes.3 = UInt8(truncatingIfNeeded: milliseconds >> 16)
        bytes.4 = UInt8(truncatingIfNeeded: milliseconds >> 8)
        bytes.5 = UInt8(truncatingIfNeeded: milliseconds)
        bytes.6 = (bytes.6 & 0x0F) | 0x70 // version 7 (time-ordered)
        bytes.8 = (bytes.8 & 0x3F) | 0x80 // RFC 9562 variant
        return UUID(uuid: bytes)
    }
}
