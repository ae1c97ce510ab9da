import Foundation
import Testing
@testable import WDietServer

@Suite("Auth: password hashing")
struct AuthPasswordTests {
    @Test("production hashes with bcrypt at cost 12")
    func productionCost() async throws {
        let configuration = ServerConfiguration()
        #expect(configuration.bcryptCost == 12)
        let hasher = PasswordHasher(cost: configuration.bcryptCost)
        let hash = try await hasher.hash("correct horse")
        #expect(hash.hasPrefix("$2b$12$"))
        #expect(hash.count == 60)
        #expect(try await hasher.verify("correct horse", hash: hash))
    }

    @Test("a hash verifies its own password only, and two hashes of one password differ (salt)")
    func verify() async throws {
        let hasher = PasswordHasher(cost: 4)
        let first = try await hasher.hash("correct horse"), second = try await hasher.hash("correct horse")
        #expect(first != second)
        #expect(first.hasPrefix("$2b$04$"))
        #expect(try await hasher.verify("correct horse", hash: second))
        #expect(try await !hasher.verify("Correct horse", hash: first))
        #expect(try await !hasher.verify("", hash: first))
    }

    @Test("every character counts, past bcrypt's 72 bytes and after a NUL")
    func longAndNulPasswords() async throws {
        let hasher = PasswordHasher(cost: 4)
        let long = String(repeating: "a", count: 100) + "1"
        let hash = try await hasher.hash(long)
        #expect(try await !hasher.verify(String(repeating: "a", count: 100) + "2", hash: hash))

        let withNul = try await hasher.hash("password\u{0}one")
        #expect(try await !hasher.verify("password\u{0}two", hash: withNul))
        #expect(try await !hasher.verify("password", hash: withNul))
    }

    @Test("a composed and a decomposed é are the same password")
    func unicodeNormalization() async throws {
        let hasher = PasswordHasher(cost: 4)
        let hash = try await hasher.hash("caf\u{E9} au lait")
        #expect(try await hasher.verify("cafe\u{301} au lait", hash: hash))
    }

    @Test("a cost outside bcrypt's range is held to it rather than crashing")
    func costClamped() {
        #expect(PasswordHasher(cost: 0).cost == 4)
        #expect(PasswordHasher(cost: 40).cost == 31)
    }

}
