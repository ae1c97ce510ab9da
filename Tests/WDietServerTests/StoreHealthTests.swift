import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import PostgresNIO
import Testing
import WDietStore
import WDietTestSupport

/// Issue 21 item 13: on a full disk the log said only "request unavailable", once per request, and nothing told a
/// monitor that the store could not write. Now the cause is logged once per cause and minute, and
/// `GET /api/v1/health` answers whether the store can write (a real write), with the cause.
@Suite(.serialized) struct StoreHealthTests {
    final class Lines: @unchecked Sendable {
        private let lock = NSLock()
        private var lines: [StoreFailureLog.Line] = []
        func append(_ line: StoreFailureLog.Line) { lock.lock(); lines.append(line); lock.unlock() }
        var all: [StoreFailureLog.Line] { lock.lock(); defer { lock.unlock() }; return lines }
    }

    @Test func eachCauseIsLoggedOncePerMinuteWithHowManyMoreHappened() {
        let clock = TestClock(Fixtures.utc("2026-03-01T09:00:00Z"))
        let lines = Lines()
        let log = StoreFailureLog(now: clock.closure, sink: lines.append)
        for _ in 0..<5 { log.record(.diskFull, detail: "SQLITE_FULL") }
        log.record(.databaseLocked, detail: "SQLITE_BUSY")
        clock.advance(seconds: 59)
        log.record(.diskFull, detail: "SQLITE_FULL")
        #expect(lines.all.map(\.cause) == [.diskFull, .databaseLocked])
        clock.advance(seconds: 1)
        log.record(.diskFull, detail: "SQLITE_FULL")
        #expect(lines.all.map(\.cause) == [.diskFull, .databaseLocked, .diskFull])
        #expect(lines.all.last?.suppressed == 5)
        #expect(lines.all.last?.message == "The store cannot serve requests: the disk is full (5 more since the last report)")
        #expect(lines.all.first?.message == "The store cannot serve requests: the disk is full")
        #expect(log.recentWriteBlocker(within: 30)?.cause == .diskFull)
        clock.advance(seconds: 31)
        #expect(log.recentWriteBlocker(within: 30) == nil)
    }

    func health(_ client: some TestClientProtocol) async throws -> (HTTPResponse.Status, [String: Any]) {
        let response = try await client.execute(uri: "/api/v1/health", method: .get)
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any] ?? [:]
        return (response.status, object["store"] as? [String: Any] ?? [:])
    }

    @Test("SQLite: a read-only store and a full one answer 503 with the cause; the cause is logged once")
    func sqlite() async throws {
        defer { StoreFailureLog.shared.clear() }
        StoreFailureLog.shared.clear()
        try await TestApp.test(.sqlite) { t, client in
            let session = try await client.signInWithProfile()
            let (ok, store) = try await health(client)
            #expect(ok == .ok)
            #expect(store["canWrite"] as? Bool == true)
            #expect(store["backend"] as? String == "sqlite")

            let database = try #require(t.services.database)
            try await database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
            let (readOnly, refused) = try await health(client)
            #expect(readOnly == .serviceUnavailable)
            #expect(refused["canWrite"] as? Bool == false)
            #expect(refused["cause"] as? String == "readOnly")
            try await database.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 0") }
            #expect(try await health(client).0 == .ok)

            // A full disk: the database may not grow by a page. Three saves refused, one line logged.
            let lines = Lines()
            let observation = StoreFailureLog.shared.observe(lines.append)
            defer { StoreFailureLog.shared.stopObserving(observation) }
            try await database.writer.writeWithoutTransaction { db in
                let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
                _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
            }
            // Meals until the table needs a new page, then two more refused saves.
            var refusedSaves = 0
            for index in 0..<400 where refusedSaves < 3 {
                let name = "Soup number \(index) " + String(repeating: "with a long name ", count: 4)
                let status = try await client.api(.post, "/api/v1/meals", session, json: ["name": name, "calories": 300]).status
                if status == .serviceUnavailable { refusedSaves += 1 } else { #expect(status == .created) }
            }
            #expect(refusedSaves == 3)
            let full = lines.all.filter { $0.cause == .diskFull }
            #expect(full.count == 1, "\(lines.all.map(\.message))")
            let (fullStatus, fullStore) = try await health(client)
            #expect(fullStatus == .serviceUnavailable)
            #expect(fullStore["cause"] as? String == "diskFull")
        }
    }

    @Test("PostgreSQL: a database that refuses writes answers 503 readOnly, and 200 once it takes them again")
    func postgres() async throws {
        defer { StoreFailureLog.shared.clear() }
        StoreFailureLog.shared.clear()
        try await TestApp.test(.postgres) { t, client in
            #expect(try await health(client).0 == .ok)
            let postgres = try #require(t.services.postgres)
            func setReadOnly(_ on: Bool) async throws {
                try await postgres.client.withConnection { connection in
                    _ = try await connection.query("SET default_transaction_read_only = off", logger: Logger(label: "t")).collect()
                    let value: PostgresQuery = on
                        ? "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET default_transaction_read_only = on', current_database()); END $$"
                        : "DO $$ BEGIN EXECUTE format('ALTER DATABASE %I RESET default_transaction_read_only', current_database()); END $$"
                    _ = try await connection.query(value, logger: Logger(label: "t")).collect()
                    _ = try await connection.query(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                        logger: Logger(label: "t")).collect()
                    _ = try? await connection.query("SELECT pg_terminate_backend(pg_backend_pid())", logger: Logger(label: "t")).collect()
                }
            }
            try await setReadOnly(true)
            var answers: [(HTTPResponse.Status, String?)] = []
            for _ in 0..<10 {
                let (status, store) = try await health(client)
                answers.append((status, store["cause"] as? String))
                if store["cause"] as? String == "readOnly" { break }
                try await Task.sleep(nanoseconds: 200_000_000)
            }
            #expect(answers.last?.0 == .serviceUnavailable)
            #expect(answers.last?.1 == "readOnly", "\(answers)")
            try await setReadOnly(false)
            var status = HTTPResponse.Status.serviceUnavailable
            for _ in 0..<10 where status != .ok {
                status = try await health(client).0
                if status != .ok { try await Task.sleep(nanoseconds: 200_000_000) }
            }
            #expect(status == .ok)
        }
    }
}
