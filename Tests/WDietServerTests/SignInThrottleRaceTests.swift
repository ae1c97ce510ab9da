import Foundation
import Testing
import WDietCore
import WDietPostgres
@testable import WDietServer
import WDietSQLite
import WDietStore
import WDietTestSupport

/// Issue 21 item 1: the throttle's slot is taken in the store before the password is hashed, so parallel guesses
/// cannot all slip in between a read of the count and its write. Two `AccountService`s on two connections (pools)
/// to one database stand for two server processes.
@Suite("Auth: the sign-in throttle under parallel guesses")
struct SignInThrottleRaceTests {
    /// Two server processes on one fresh database of `backend`: each with its own store connections and its own
    /// hasher (bcrypt cost 8: a few milliseconds, long enough that 50 guesses overlap).
    struct TwoProcesses {
        let first: AccountService
        let second: AccountService
        var hashers: [PasswordHasher] { [first.passwords, second.passwords] }
        var checks: Int { hashers.map(\.checkCount).reduce(0, +) }
    }

    static func withTwoProcesses(_ backend: StoreBackend, _ body: (TwoProcesses) async throws -> Void) async throws {
        let clock = TestClock(Fixtures.utc("2026-03-01T09:00:00Z"))
        switch backend {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("throttle-race-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let path = directory.appendingPathComponent("wdiet.sqlite").path
            let services = try [AppDatabase.open(path: path), AppDatabase.open(path: path)].map {
                AppServices(database: $0, now: clock.closure)
            }
            try await body(TwoProcesses(
                first: AccountService(services: services[0], passwords: PasswordHasher(cost: 8)),
                second: AccountService(services: services[1], passwords: PasswordHasher(cost: 8))))
        case .postgres:
            let scratch = try await PostgresScratchDatabase.create()
            var databases: [PostgresDatabase] = []
            var failure: (any Error)?
            do {
                databases = [
                    try PostgresDatabase(url: scratch.url, maximumConnections: 8),
                    try PostgresDatabase(url: scratch.url, maximumConnections: 8),
                ]
                let services = databases.map { AppServices(postgres: $0, now: clock.closure) }
                try await body(TwoProcesses(
                    first: AccountService(services: services[0], passwords: PasswordHasher(cost: 8)),
                    second: AccountService(services: services[1], passwords: PasswordHasher(cost: 8))))
            } catch {
                failure = error
            }
            for database in databases { await database.close() }
            await scratch.drop()
            if let failure { throw failure }
        }
    }

    enum Outcome: Equatable { case signedIn, wrong, throttled, other(String) }

    static func attempt(_ accounts: AccountService, _ email: String, _ password: String, from address: String) async -> Outcome {
        do {
            _ = try await accounts.login(email: email, password: password, kind: .api, clientAddress: address)
            return .signedIn
        } catch AccountRefusal.invalidCredentials {
            return .wrong
        } catch AccountRefusal.tooManyAttempts {
            return .throttled
        } catch {
            return .other("\(error)")
        }
    }

    @Test("50 parallel wrong guesses for one email from one address across two processes: at most 5 checked", arguments: StoreBackend.allCases)
    func parallelGuesses(_ backend: StoreBackend) async throws {
        try await Self.withTwoProcesses(backend) { p in
            _ = try await p.first.register(email: "ana@example.com", password: "correct horse", kind: .api)
            let before = p.checks
            let outcomes = await withTaskGroup(of: Outcome.self) { group in
                for index in 0..<50 {
                    let accounts = index % 2 == 0 ? p.first : p.second
                    group.addTask { await Self.attempt(accounts, "ana@example.com", "wrong horse \(index)", from: "203.0.113.7") }
                }
                return await group.reduce(into: [Outcome]()) { $0.append($1) }
            }
            #expect(p.checks - before == 5)
            #expect(outcomes.filter { $0 == .wrong }.count == 5)
            #expect(outcomes.filter { $0 == .throttled }.count == 45)
            // The owner's right password from the same address is refused too until the window ends.
            #expect(await Self.attempt(p.first, "ana@example.com", "correct horse", from: "203.0.113.7") == .throttled)
        }
    }

    @Test("a burst of 40 guesses with the right password last does not sign in", arguments: StoreBackend.allCases)
    func burstWithRightPasswordLast(_ backend: StoreBackend) async throws {
        try await Self.withTwoProcesses(backend) { p in
            _ = try await p.first.register(email: "ana@example.com", password: "correct horse", kind: .api)
            let outcomes = await withTaskGroup(of: Outcome.self) { group in
                for index in 0..<39 {
                    let accounts = index % 2 == 0 ? p.first : p.second
                    group.addTask { await Self.attempt(accounts, "ana@example.com", "wrong horse \(index)", from: "203.0.113.7") }
                }
                var outcomes = await group.reduce(into: [Outcome]()) { $0.append($1) }
                outcomes.append(await Self.attempt(p.second, "ana@example.com", "correct horse", from: "203.0.113.7"))
                return outcomes
            }
            #expect(outcomes.filter { $0 == .wrong }.count == 5)
            #expect(outcomes.last == .throttled)
            #expect(!outcomes.contains(.signedIn))
        }
    }

    @Test("60 parallel guesses from one address at 60 emails: at most 20 checked", arguments: StoreBackend.allCases)
    func parallelGuessesFromOneAddress(_ backend: StoreBackend) async throws {
        try await Self.withTwoProcesses(backend) { p in
            let before = p.checks
            let outcomes = await withTaskGroup(of: Outcome.self) { group in
                for index in 0..<60 {
                    let accounts = index % 2 == 0 ? p.first : p.second
                    group.addTask { await Self.attempt(accounts, "user\(index)@example.com", "wrong horse", from: "203.0.113.9") }
                }
                return await group.reduce(into: [Outcome]()) { $0.append($1) }
            }
            #expect(p.checks - before == 20)
            #expect(outcomes.filter { $0 == .wrong }.count == 20)
            #expect(outcomes.filter { $0 == .throttled }.count == 40)
        }
    }
}
