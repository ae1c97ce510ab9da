import Foundation
import GRDB
import PostgresNIO
import Testing
import WDietPostgres
import WDietSQLite
import WDietStore
import WDietTestSupport

@Suite("wdiet metrics")
struct MetricsCommandTests {
    /// A database file holding the generated population of `POCMetricsPopulation`.
    static func populatedFile() async throws -> (folder: URL, path: String) {
        let folder = try CLI.temporaryDirectory()
        let path = folder.appendingPathComponent("metrics.sqlite").path
        let database = try AppDatabase.open(path: path)
        try await POCMetricsPopulation.write(users: SQLiteUserStore(database: database), analytics: SQLiteAnalyticsStore(database: database)) { userId, eventId in
            try await database.writer.write { db in
                try db.execute(sql: "UPDATE analytics_events SET deletedAt = '2026-04-01T00:00:00.000Z' WHERE id = ?", arguments: [eventId.uuidString.lowercased()])
            }
        }
        return (folder, path)
    }

    @Test("March as JSON: the population's known answers, with rates")
    func marchJSON() async throws {
        let (folder, path) = try await Self.populatedFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await CLI.run(["metrics", "--database", path, "--from", "2026-03-01", "--to", "2026-03-31", "--json"])
        #expect(output.status == 0)
        let metrics = try JSONDecoder().decode(POCMetrics.self, from: Data(output.stdout.utf8))
        #expect(metrics.cohort == 100)
        #expect(metrics.weekOneRetention == .init(users: 50, outOf: 100))
        #expect(metrics.phaseSwitchContinuation == .init(users: 30, outOf: 40))
        #expect(output.stdout.contains("\"rate\" : 0.75"))
    }

    @Test("on PostgreSQL: the same population gives the same answers")
    func marchOnPostgres() async throws {
        let scratch = try await PostgresScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        try await POCMetricsPopulation.write(
            users: PostgresUserStore(client: scratch.client), analytics: PostgresAnalyticsStore(client: scratch.client)
        ) { _, eventId in
            try await scratch.client.query("UPDATE analytics_events SET deleted_at = now() WHERE id = \(eventId)")
        }
        let output = try await CLI.run(["metrics", "--from", "2026-03-01", "--to", "2026-03-31", "--json"], environment: ["WDIET_DATABASE_URL": scratch.url])
        #expect(output.status == 0, "\(output.stderr)")
        let metrics = try JSONDecoder().decode(POCMetrics.self, from: Data(output.stdout.utf8))
        #expect(metrics.cohort == 100)
        #expect(metrics.weekOneRetention == .init(users: 50, outOf: 100))
        #expect(metrics.phaseSwitchContinuation == .init(users: 30, outOf: 40))
    }

    @Test("as a table: one line a metric with the share in per cent")
    func table() async throws {
        let (folder, path) = try await Self.populatedFile()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try await CLI.run(["metrics", "--database", path, "--from", "2026-03-01", "--to", "2026-03-31"])
        #expect(output.status == 0, "\(output.stderr)")
        let lines = output.stdout.split(separator: "\n")
        #expect(lines.first == "POC metrics: users who started onboarding from 2026-03-01 to 2026-03-31 (100 users)")
        #expect(lines.contains { $0.hasPrefix("Activation") && $0.hasSuffix("80 / 100     80.0 %") })
        #expect(lines.contains { $0.hasPrefix("Phase-switch continuation") && $0.hasSuffix("30 / 40      75.0 %") })
    }

    @Test("bad input: a malformed date, a period that ends before it starts, a missing file — one line and a non-zero exit")
    func badInput() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("none.sqlite").path
        let malformed = try await CLI.run(["metrics", "--database", missing, "--from", "March"])
        #expect(malformed.status != 0)
        #expect(malformed.stderrLines.last?.contains("--from must be a date like 2026-03-01") == true)
        let backwards = try await CLI.run(["metrics", "--database", missing, "--from", "2026-03-10", "--to", "2026-03-01"])
        #expect(backwards.status != 0)
        #expect(backwards.stderr.contains("--to must not be before --from"))
        let absent = try await CLI.run(["metrics", "--database", missing])
        #expect(absent.status == 1)
        #expect(absent.stderrLines == ["wdiet: no database at \(missing)"])
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
