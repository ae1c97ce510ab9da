import Foundation
import Logging
import PostgresNIO
import WDietFoodData
import WDietPostgres

extension PostgresScratchDatabase {
    /// A scratch database holding SR28: a copy (`CREATE DATABASE … TEMPLATE`) of a database SR28 was imported into
    /// once per cluster (`SR28PostgresTemplate`). Each suite that searches SR28 on PostgreSQL used to import
    /// it itself, 679,045 nutrient values each time; a copy takes a second or two.
    public static func createWithSR28(from dataFolder: URL) async throws -> PostgresScratchDatabase {
        let server = try serverConfiguration()
        let template = try await SR28PostgresTemplate.shared.template(from: dataFolder, on: server)
        return try await copy(of: template, server: server)
    }

    static func copy(of template: String, server: PostgresClient.Configuration) async throws -> PostgresScratchDatabase {
        let name = "wdiet_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await withAdminClient(server) { admin in
            try await admin.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name) TEMPLATE \(template)"))
        }
        var configuration = server
        configuration.database = name
        let client = PostgresClient(configuration: configuration)
        let running = Task { await client.run() }
        return PostgresScratchDatabase(name: name, client: client, server: server, running: running)
    }
}

/// The SR28 template on the test cluster: the food catalog's migrations and SR28, imported by the production
/// importer (`PostgresFoodCatalogImport.importIfMissing`) into a fresh database and renamed into place when whole.
///
/// Named after the migrations and the files' content hash, like `MigratedTemplates`: a cluster kept between runs
/// holds one per catalog and schema, and a second test process (another checkout on the same cluster) uses it or
/// builds the same one. The README's test command starts a new cluster, so each of its runs imports SR28 afresh with
/// the importer of the code under test; on a kept cluster an importer changed without a new migration is checked by
/// the import tests (tiny catalogs, and `secondImportChangesNothing` re-importing SR28 over the copy).
public actor SR28PostgresTemplate {
    public static let shared = SR28PostgresTemplate()

    private var building: Task<String, any Error>?

    func template(from dataFolder: URL, on server: PostgresClient.Configuration) async throws -> String {
        if let building { return try await building.value }
        let task = Task { try await Self.build(from: dataFolder, server: server) }
        building = task
        do {
            return try await task.value
        } catch {
            building = nil
            throw error
        }
    }

    /// `wdiet_sr28_` and a 64-bit FNV-1a hash of the catalog's migrations and the files' content hash.
    static func name(dataFolder: URL) throws -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let parts = [
            MigratedTemplates.name(for: PostgresFoodCatalogSchema.migrations), try SR28Files(directory: dataFolder).contentHash,
        ]
        for part in parts {
            for byte in part.utf8 + [0] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01b3
            }
        }
        return "wdiet_sr28_" + String(hash, radix: 16)
    }

    private static func build(from dataFolder: URL, server: PostgresClient.Configuration) async throws -> String {
        let name = try name(dataFolder: dataFolder)
        if try await MigratedTemplates.exists(name, on: server) { return name }
        let database = try await PostgresScratchDatabase.create(migrations: PostgresFoodCatalogSchema.migrations)
        do {
            let imported = try await PostgresFoodCatalogImport.importIfMissing(
                client: database.client, dataFolder: dataFolder, logger: Logger(label: "wdiet.test"))
            guard imported else { throw Failure.notImported(database.name) }
        } catch {
            await database.drop()
            throw error
        }
        database.running.cancel()
        if await !BoundedWait.finishes(within: .seconds(60), { _ = await database.running.value }) {
            PostgresScratchDatabase.warn("the client that imported SR28 into \(database.name) did not stop within 60 s")
        }
        try await MigratedTemplates.putInPlace(database.name, as: name, server: server)
        return name
    }

    enum Failure: Error, CustomStringConvertible {
        case notImported(String)

        var description: String { "SR28 was already in the fresh database \(running) meant for the template" }
        private var running: String { switch self { case .notImported(let name): name } }
    }
}
