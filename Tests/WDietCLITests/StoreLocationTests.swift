import Foundation
import GRDB
import Testing
import WDietPostgres
import WDietSQLite
import WDietStorage
import WDietTestSupport

/// `StoreLocation`: how every command reads `--database` (or `$WDIET_DATABASE_URL`, or the default), and the one
/// line each says when the database cannot be used.
@Suite("StoreLocation")
struct StoreLocationTests {
    static let expectedForms = "expected a SQLite file or postgres://user[:password]@host[:port]/database"

    func failure(_ text: String) -> String? {
        do {
            _ = try StoreLocation(text)
            return nil
        } catch {
            return error.description
        }
    }

    @Test("a path is a SQLite file, a postgres:// or postgresql:// URL (any case) is PostgreSQL")
    func parsing() throws {
        #expect(try StoreLocation("wdiet.sqlite") == .sqlite(path: "wdiet.sqlite"))
        #expect(try StoreLocation("/var/lib/wdiet/wdiet.sqlite") == .sqlite(path: "/var/lib/wdiet/wdiet.sqlite"))
        // A colon alone does not make a URL.
        #expect(try StoreLocation("backups/wdiet:2026-03-01.sqlite") == .sqlite(path: "backups/wdiet:2026-03-01.sqlite"))
        #expect(try StoreLocation("postgres://ana@db.example/wdiet") == .postgres(url: "postgres://ana@db.example/wdiet"))
        #expect(try StoreLocation("postgresql://ana@db.example:5433/wdiet").isPostgres)
        #expect(try StoreLocation("POSTGRES://ana@db.example/wdiet").isPostgres)
        #expect(try StoreLocation("postgres://ana@db.example/wdiet?sslmode=require").postgresURL == "postgres://ana@db.example/wdiet?sslmode=require")
    }

    @Test("another scheme, an empty text and an incomplete URL are refused in one line, without the password")
    func refusals() {
        #expect(failure("mysql://ana:s3cret@db.example/wdiet")
            == "the database URL starts with mysql://, which wdiet does not speak; \(Self.expectedForms)")
        #expect(failure("sqlite:///var/lib/wdiet.sqlite")
            == "the database URL starts with sqlite://, which wdiet does not speak; \(Self.expectedForms)")
        #expect(failure("") == "the database location is empty; \(Self.expectedForms)")
        #expect(failure("postgres://ana:s3cret@/wdiet")
            == "the database URL has no host; expected postgres://user[:password]@host[:port]/database")
        #expect(failure("postgres://ana:s3cret@db.example/wdiet?ssl=true")?.contains("unsupported option ssl") == true)
        #expect(failure("postgres://ana:s3cret@/wdiet")?.contains("s3cret") == false)
    }

    @Test("the option, else $WDIET_DATABASE_URL (empty is unset), else wdiet.sqlite")
    func resolving() throws {
        let url = "postgres://ana@db.example/wdiet"
        #expect(try StoreLocation.resolve(option: "mine.sqlite", environment: ["WDIET_DATABASE_URL": url]) == .sqlite(path: "mine.sqlite"))
        #expect(try StoreLocation.resolve(option: nil, environment: ["WDIET_DATABASE_URL": url]) == .postgres(url: url))
        #expect(try StoreLocation.resolve(option: nil, environment: ["WDIET_DATABASE_URL": ""]) == .sqlite(path: "wdiet.sqlite"))
        #expect(try StoreLocation.resolve(option: nil, environment: [:]) == .sqlite(path: "wdiet.sqlite"))
        #expect(throws: StoreFailure.self) { try StoreLocation.resolve(option: nil, environment: ["WDIET_DATABASE_URL": "mysql://x/y"]) }
    }

    @Test("shown as typed, a URL without its password")
    func description() throws {
        #expect(try StoreLocation("postgres://ana:s3cret@db.example:5433/wdiet").description == "postgres://ana@db.example:5433/wdiet")
        #expect(try StoreLocation("data/wdiet.sqlite").description == "data/wdiet.sqlite")
    }

    @Test("opening: a new SQLite file is created and migrated, an existing one is not migrated again")
    func openingSQLite() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let location = StoreLocation.sqlite(path: folder.appendingPathComponent("new.sqlite").path)
        await #expect(throws: StoreFailure.self) { try await location.open(.existing) }

        let first = try await location.open(.migrating)
        #expect(first.appliedMigrations.first == "v1-coach")
        #expect(first.appliedMigrations.count == first.knownMigrationCount)
        let second = try await location.open(.existing)
        #expect(second.appliedMigrations.isEmpty)
        guard case .sqlite = second.backend else {
            Issue.record("a SQLite location opened as \(second.backend)")
            return
        }
    }

    // MARK: The commands' one-line errors

    @Test("a PostgreSQL URL handed to the SQLite-only food commands says so, and what to do instead")
    func sqliteOnlyCommands() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = "postgres://ana:s3cret@db.example/wdiet"

        let importing = try await CLI.run(["import-foods", "--database", url, "--from", CLI.foodDataDirectory.path], in: folder)
        #expect(importing.status == 1)
        #expect(importing.stderrLines == [
            "wdiet: `wdiet import-foods` works on a SQLite file, not on PostgreSQL (postgres://ana@db.example/wdiet): "
                + "`wdiet serve --database URL --from DIR` imports the catalog into PostgreSQL when it starts"
        ])

        // From the environment, as a deployment sets it.
        let searching = try await CLI.run(["foods", "search", "banana"], in: folder, environment: ["WDIET_DATABASE_URL": url])
        #expect(searching.status == 1)
        #expect(searching.stderrLines == [
            "wdiet: `wdiet foods search` works on a SQLite file, not on PostgreSQL (postgres://ana@db.example/wdiet): "
                + "pass --database FILE, or search through the server (GET /api/v1/foods/search?q=…)"
        ])
        #expect(!importing.stderr.contains("s3cret") && !searching.stderr.contains("s3cret"))
        // Nothing was created in the working directory.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("metrics on a folder, and on a file a newer wdiet migrated: one line each")
    func sqliteProblems() async throws {
        let folder = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let onFolder = try await CLI.run(["metrics", "--database", folder.path])
        #expect(onFolder.status == 1)
        #expect(onFolder.stderrLines == ["wdiet: \(folder.path) is a folder; expected a SQLite file"])

        let path = folder.appendingPathComponent("future.sqlite").path
        #expect(try await CLI.run(["migrate", "--database", path]).status == 0)
        try await DatabaseQueue(path: path).write { db in
            try db.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')")
        }
        let message = "the database schema is newer than this wdiet (unknown migration v99-from-the-future): "
            + "upgrade wdiet, or use the database the newer version migrated"
        for command in [["metrics"], ["migrate"], ["foods", "search", "banana"]] {
            let output = try await CLI.run(command + ["--database", path])
            #expect(output.status == 1, "\(command)")
            #expect(output.stderrLines == ["wdiet: \(message)"], "\(command)")
        }
    }

    @Test("PostgreSQL that cannot be reached or refuses: one line at once, with the server's reason when it gave one")
    func postgresProblems() async throws {
        // Nothing listens on port 1: the connection is refused, and the command says what to check. (That it says so
        // after one connection, not after the pool's minute of retries, is pinned below without a clock: only that
        // one connection carries the server's own reason, as for the missing database.)
        let unreachable = try await CLI.run(["migrate", "--database", "postgres://ana:s3cret@127.0.0.1:1/wdiet"])
        #expect(unreachable.status == 1)
        #expect(unreachable.stderrLines == [
            "wdiet: cannot connect to PostgreSQL at 127.0.0.1:1/wdiet: check that it is running and the URL's host, port, user, password and database"
        ])

        // The test cluster, asked for a database it does not have.
        let server = try PostgresScratchDatabase.serverConfiguration()
        let host = "\(server.host ?? "127.0.0.1"):\(server.port ?? 5432)"
        let missing = "postgres://\(server.username)\(server.password.map { ":" + $0 } ?? "")@\(host)/wdiet_no_such_database"
        let refused = try await CLI.run(["metrics", "--database", missing])
        #expect(refused.status == 1)
        #expect(refused.stderrLines == ["wdiet: PostgreSQL at \(host)/wdiet_no_such_database refused: database \"wdiet_no_such_database\" does not exist"])

        // A database nobody migrated: metrics reads, so it does not migrate; it says what to run.
        let scratch = try await PostgresScratchDatabase.create(migrations: [])
        defer { Task { await scratch.drop() } }
        let unmigrated = try await CLI.run(["metrics", "--database", scratch.url])
        #expect(unmigrated.status == 1)
        let versions = PostgresDatabase.migrations.map { String($0.version) }.sorted { Int($0)! < Int($1)! }
        #expect(unmigrated.stderrLines == [
            "wdiet: the database is not migrated (missing migration \(versions.joined(separator: ", "))): run `wdiet migrate` first"
        ])

        // The server opens its database the same way.
        let serving = try await CLI.run(["serve", "--port", "18997", "--database", "postgres://ana:s3cret@127.0.0.1:1/wdiet"])
        #expect(serving.status == 1)
        #expect(serving.stderrLines.last
            == "wdiet: Could not start: cannot connect to PostgreSQL at 127.0.0.1:1/wdiet: check that it is running and the URL's host, port, user, password and database")
        #expect(!serving.stderr.contains("s3cret"))
    }

    @Test("wdiet-dev bench refuses a --postgres that is not a PostgreSQL URL before it measures anything")
    func benchPostgresOption() async throws {
        let output = try await CLI.run(["bench", "--postgres", "sync.sqlite"], binary: CLI.developerTool)
        #expect(output.status == 1)
        #expect(output.stdout.isEmpty)
        #expect(output.stderrLines == [
            "wdiet-dev: --postgres takes a postgres:// URL, not a file: SQLite is measured on a scratch file of its own"
        ])
    }
}
