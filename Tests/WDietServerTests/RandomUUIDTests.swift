import Foundation
import Testing
@testable import WDietServer

@Suite("Random UUIDs")
struct RandomUUIDTests {
    @Test("version 4, RFC 4122 variant, and no repeats across several refills of the pool")
    func versionAndUniqueness() {
        var seen = Set<UUID>()
        for _ in 0..<20_000 {
            let id = RandomUUID.make()
            #expect(id.uuid.6 >> 4 == 4)
            #expect(id.uuid.8 >> 6 == 0b10)
            seen.insert(id)
        }
        #expect(seen.count == 20_000)
    }

    @Test("the bits that are not fixed vary: each of the 122 random bits is 0 and 1 among a few thousand ids")
    func bitsVary() {
        var ones = [Int](repeating: 0, count: 128)
        let count = 4_000
        for _ in 0..<count {
            let id = RandomUUID.make()
            withUnsafeBytes(of: id.uuid) { bytes in
                for bit in 0..<128 where bytes[bit / 8] >> (7 - bit % 8) & 1 == 1 { ones[bit] += 1 }
            }
        }
        let fixed: Set<Int> = [48, 49, 50, 51, 64, 65]
        for bit in 0..<128 where !fixed.contains(bit) {
            // A fair bit is 1 about 2,000 times in 4,000; 1,700..2,300 is more than 9 standard deviations wide.
            #expect((1_700...2_300).contains(ones[bit]), "bit \(bit): \(ones[bit]) ones")
        }
    }
}
