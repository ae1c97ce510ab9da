import Foundation
import PostgresNIO
import Testing
import WDietPostgres
import WDietTestSupport

@Suite struct MigrateCommandTests {
    let logger = Logger(label: "wdiet.test.migrate")

    @Test func migratingAPostgresDatabaseTwiceChangesNothingTheSecondTime() async throws {
        let scratch = try await PostgresScratchDatabase.create(migrations: [])
        defer { Task { await scratch.drop() } }

        let first = try await CLI.run(["migrate", "--database", scratch.url])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "Applied 20 migrations to the PostgreSQL database: 1 coach, 2 accounts, 3 profile-gender-description, 4 sync, 5 logged-days-batch-triggers, 6 user-language, 7 meal-slot, 8 user-appearance, 9 profile-plan-history, 20 journal, 21 journal-search, 40 password-reset-tokens, 45 challenge-app-lock, 47 deleted-rows-scrub, 48 sync-rows-scrub, 49 value-domains, 50 logged-days-in-save, 101 food-catalog, 201 media, 202 media-unreferenced.\n")

        // The URL from the environment, as a deployment passes it.
        let second = try await CLI.run(["migrate"], environment: ["WDIET_DATABASE_URL": scratch.url])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "The PostgreSQL database is up to date (20 migrations); nothing to do.\n")

        var versions: [Int] = []
        for try await (version, name) in try await scratch.client.query("SELECT version, name FROM schema_migrations ORDER BY version")
            .decode((Int, String).self) {
            versions.append(version)
            #expect(!name.isEmpty)
        }
        #expect(versions == [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 40, 45, 47, 48, 49, 50, 101, 201, 202])
    }

    @Test func aPostgresSchemaNewerThanTheBinaryIsRefusedInOneLine() async throws {
        let scratch = try await PostgresScratchDatabase.create()
        defer { Task { await scratch.drop() } }
        try await scratch.client.query("INSERT INTO schema_migrations (version, name) VALUES (99, 'from-the-future')")

        let output = try await CLI.run(["migrate", "--database", scratch.url])

        #expect(output.status != 0)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines == [
            "wdiet: the database schema is newer than this wdiet (unknown migration 99): "
                + "upgrade wdiet, or use the database the newer version migrated"
        ])
        // And the server's start-up check says the same.
        await #expect(throws: PostgresDatabase.Failure.schemaTooNew(unknownVersions: [99])) {
            try await PostgresDatabase.checkSchema(client: scratch.client, migrations: PostgresDatabase.migrations, logger: logger)
        }
    }

    @Test func anUnmigratedPostgresDatabaseFailsTheStartUpCheck() async throws {
        let scratch = try await PostgresScratchDatabase.create(migrations: PostgresFoodCatalogSchema.migrations)
        defer { Task { await scratch.drop() } }
        let all = PostgresDatabase.migrations
        await #expect(throws: PostgresDatabase.Failure.notMigrated(missingVersions: [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 40, 45, 47, 48, 49, 50, 201, 202])) {
            try await PostgresDatabase.checkSchema(client: scratch.client, migrations: all, logger: logger)
        }
        #expect(try await PostgresDatabase.migrate(client: scratch.client, migrations: all, logger: logger).map(\.version) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 21, 40, 45, 47, 48, 49, 50, 201, 202])
        try await PostgresDatabase.checkSchema(client: scratch.client, migrations: all, logger: logger)
    }

    @Test func twoProcessesMigratingAtOnceApplyEachMigrationOnce() async throws {
        let scratch = try await PostgresScratchDatabase.create(migrations: [])
        defer { Task { await scratch.drop() } }
        async let first = Task.detached { try await CLI.run(["migrate", "--database", scratch.url]) }.value
        async let second = Task.detached { try await CLI.run(["migrate", "--database", scratch.url]) }.value
        let outputs = try await [first, second]
        #expect(outputs.map(\.status) == [0, 0], "\(outputs.map(\.stderr))")
        // Whichever got the lock first applied a migration; the other waited, then found it done. Between them
        // they applied each migration exactly once.
        let said = outputs.map(\.stdout).joined()
        #expect(said.components(separatedBy: " 1 coach").count - 1 == 1, "\(said)")
        #expect(said.components(separatedBy: "101 food-catalog").count - 1 == 1, "\(said)")
        try await PostgresDatabase.checkSchema(client: scratch.client, migrations: PostgresDatabase.migrations, logger: logger)
    }

    @Test(arguments: [
        ("postgres://ana:s3cret@/wdiet", "the database URL has no host"),
        ("postgres://ana:s3cret@db.example", "the database URL has no database name"),
        ("postgres://db.example/wdiet", "the database URL has no user name"),
    ])
    func aBadURLIsRefusedWithoutShowingThePassword(url: String, message: String) async throws {
        let output = try await CLI.run(["migrate", "--database", url])
        #expect(output.status != 0)
        #expect(output.stderrLines == ["wdiet: \(message); expected postgres://user[:password]@host[:port]/database"])
        #expect(!output.stderr.contains("s3cret"))
    }

    @Test func migratingASQLiteFileTwiceChangesNothingTheSecondTime() async throws {
        let directory = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("wdiet.sqlite").path

        let first = try await CLI.run(["migrate", "--database", path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("Applied "))
        #expect(first.stdout.contains("v1-coach, v2-profile-pending-changes, v3-logged-days"))

        let second = try await CLI.run(["migrate", "--database", path])
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("The SQLite database \(path) is up to date ("))
        #expect(second.stdout.hasSuffix(" migrations); nothing to do.\n"))
    }
}
