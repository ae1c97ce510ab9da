import Foundation
import PostgresNIO
import WDietPostgres

/// Template databases for `PostgresScratchDatabase`: one per list of migrations, migrated once and copied by every
/// scratch database that asks for the same list.
///
/// A template is named after a hash of its migrations' versions, names and statements, so an edited migration gets
/// a new template and a cluster kept between runs reuses the right one. It is built under a temporary name and
/// renamed into place when complete: a test process that finds the name there knows the template is whole, and two
/// processes building the same template at once both succeed (the loser drops its copy).
public actor MigratedTemplates {
    public static let shared = MigratedTemplates()

    private var templates: [String: Task<String, any Error>] = [:]

    /// The name of a migrated template for `migrations`, built on first use in this process.
    func template(for migrations: [PostgresMigration], on server: PostgresClient.Configuration) async throws -> String {
        let name = Self.name(for: migrations)
        if let existing = templates[name] { return try await existing.value }
        let building = Task { try await Self.build(name, migrations: migrations, server: server) }
        templates[name] = building
        do {
            return try await building.value
        } catch {
            templates[name] = nil
            throw error
        }
    }

    /// `wdiet_template_` and a stable 64-bit FNV-1a hash of the migrations (Swift's `Hasher` is seeded per process).
    public static func name(for migrations: [PostgresMigration]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for migration in migrations {
            for part in ["\(migration.version)", migration.name] + migration.statements {
                for byte in part.utf8 + [0] {
                    hash ^= UInt64(byte)
                    hash = hash &* 0x0000_0100_0000_01b3
                }
            }
        }
        return "wdiet_template_" + String(hash, radix: 16)
    }

    private static func build(_ name: String, migrations: [PostgresMigration], server: PostgresClient.Configuration) async throws -> String {
        if try await exists(name, on: server) { return name }
        let building = "wdiet_building_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try await PostgresScratchDatabase.migrated(migrations, name: building, server: server)
        try await putInPlace(building, as: name, server: server)
        return name
    }

    /// Renames a database just built (`building`) to the template's `name`, or drops it when another process put its
    /// own copy there first. Shared with `SR28PostgresTemplate`.
    static func putInPlace(_ building: String, as name: String, server: PostgresClient.Configuration) async throws {
        try await PostgresScratchDatabase.withAdminClient(server) { admin in
            // A connection the building client left behind would stop the rename and every copy.
            try await admin.query(PostgresQuery(unsafeSQL:
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(building)' AND pid <> pg_backend_pid()"))
            do {
                try await admin.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(building) RENAME TO \(name)"))
            } catch {
                // Another process renamed its copy into place first: use that one.
                try? await admin.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(building) WITH (FORCE)"))
                guard try await exists(name, on: server) else { throw error }
            }
        }
    }

    static func exists(_ name: String, on server: PostgresClient.Configuration) async throws -> Bool {
        var found = false
        try await PostgresScratchDatabase.withAdminClient(server) { admin in
            let rows = try await admin.query("SELECT 1 FROM pg_database WHERE datname = \(name)")
            for try await _ in rows { found = true }
        }
        return found
    }
}
