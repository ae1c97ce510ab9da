import Foundation
import Testing
import WDietCore

@Suite("Time-ordered UUIDs")
struct TimeOrderedUUIDTests {
    @Test("RFC 9562's example instant: 2022-02-22 19:22:22 UTC is the timestamp 017F22E2-79B0, then version 7")
    func timestampOfTheRFCExample() {
        // RFC 9562, Appendix A.6: "017F22E2-79B0-7CC3-98C4-DC0C0C07398F", 1645557742000 ms.
        let id = TimeOrderedUUID.make(now: Date(timeIntervalSince1970: 1_645_557_742))
        #expect(id.uuidString.hasPrefix("017F22E2-79B0-7"))
        #expect(id.uuid.8 >> 6 == 0b10)
    }

    @Test("ids of later milliseconds sort after earlier ones, as the text the stores key rows by")
    func laterIdsSortAfter() {
        // Each instant in the middle of its own millisecond, so that rounding cannot put two in one.
        let ids = (0..<2_000).map { index in
            TimeOrderedUUID.make(now: Date(timeIntervalSince1970: Double(1_795_000_000_000 + index) / 1_000 + 0.000_4))
                .uuidString.lowercased()
        }
        #expect(ids == ids.sorted())
        #expect(Set(ids).count == ids.count)
    }

    @Test("version 7, RFC 9562 variant, and no repeats within one millisecond across several refills of the pool")
    func versionAndUniqueness() {
        let now = Date(timeIntervalSince1970: 1_795_000_000.123)
        var seen = Set<UUID>()
        for _ in 0..<20_000 {
            let id = TimeOrderedUUID.make(now: now)
            #expect(id.uuid.6 >> 4 == 7)
            #expect(id.uuid.8 >> 6 == 0b10)
            seen.insert(id)
        }
        #expect(seen.count == 20_000)
    }

    @Test("the 74 bits after the timestamp that are not fixed vary: each is 0 and 1 among a few thousand ids")
    func randomBitsVary() {
        var ones = [Int](repeating: 0, count: 128)
        let count = 4_000
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        for _ in 0..<count {
            let id = TimeOrderedUUID.make(now: now)
            withUnsafeBytes(of: id.uuid) { bytes in
                for bit in 0..<128 where bytes[bit / 8] >> (7 - bit % 8) & 1 == 1 { ones[bit] += 1 }
            }
        }
        let fixed = Set(0..<48).union([48, 49, 50, 51, 64, 65])
        for bit in 0..<128 where !fixed.contains(bit) {
            // A fair bit is 1 about 2,000 times in 4,000; 1,700..2,300 is more than 9 standard deviations wide.
            #expect((1_700...2_300).contains(ones[bit]), "bit \(bit): \(ones[bit]) ones")
        }
    }

    @Test("a meal, a meal input and a weight made without an id (as the command-line client makes them) get version 7 ids of now")
    func defaultIdsAreTimeOrdered() throws {
        let before = UInt64(Date().timeIntervalSince1970 * 1_000)
        let ids = [
            Meal(name: "Apple", kcal: 95, loggedAt: Date()).id,
            WeightEntry(kg: 70, loggedAt: Date()).id,
            try MealInput.manual(name: "Apple", calories: .value(95), loggedAt: Date()).id,
        ]
        let after = UInt64(Date().timeIntervalSince1970 * 1_000)
        for id in ids {
            #expect(id.uuid.6 >> 4 == 7, "\(id)")
            let bytes = [id.uuid.0, id.uuid.1, id.uuid.2, id.uuid.3, id.uuid.4, id.uuid.5]
            let milliseconds = bytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            #expect((before...after).contains(milliseconds), "\(id)")
        }
    }
}
