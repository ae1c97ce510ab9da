import Foundation
import GRDB
import Testing
@testable import WDietSQLite

@Suite struct AccountMigrationTests {
    @Test func createsCredentialsAndSessions() throws {
        let database = try AppDatabase.inMemory()
        let (columns, indexes, foreignKeys, applied) = try database.writer.read { db in
            (
                [
                    "credentials": try db.columns(in: "credentials").map(\.name),
                    "sessions": try db.columns(in: "sessions").map(\.name),
                ],
                try db.indexes(on: "sessions").filter { !$0.isUnique }.map(\.columns),
                [
                    "credentials": try db.foreignKeys(on: "credentials").map { [$0.destinationTable] + $0.originColumns },
                    "sessions": try db.foreignKeys(on: "sessions").map { [$0.destinationTable] + $0.originColumns },
                ],
                try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations WHERE identifier = 'v4-accounts'")
            )
        }
        #expect(columns == [
            "credentials": ["userId", "passwordHash", "updatedAt"],
            "sessions": ["tokenHash", "userId", "kind", "createdAt", "expiresAt", "lastUsedAt"],
        ])
        #expect(indexes == [["userId", "expiresAt"]])
        #expect(foreignKeys == ["credentials": [["users", "userId"]], "sessions": [["users", "userId"]]])
        #expect(applied == ["v4-accounts"])
    }

    @Test func upgradesADatabaseMadeBeforeItAndKeepsItsUsers() throws {
        let queue = try DatabaseQueue()
        try AppDatabase.migrator.migrate(queue, upTo: "v1-food-catalog")
        try queue.write { db in
            #expect(try !db.tableExists("sessions"))
            try db.execute(sql: """
                INSERT INTO users (id, email, displayName, createdAt, updatedAt, version)
                VALUES ('6f0c2a4e-0000-4000-8000-000000000001', 'ana@example.com', 'Kept', '2026-03-01T09:00:00.000Z',
                        '2026-03-01T09:00:00.000Z', 1)
                """)
        }

        _ = try AppDatabase(queue)

        let (users, credentials, sessions) = try queue.read { db in
            (
                try String.fetchAll(db, sql: "SELECT displayName FROM users"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM credentials"),
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sessions")
            )
        }
        #expect(users == ["Kept"])
        // Users from before have no password yet.
        #expect(credentials == 0)
        #expect(sessions == 0)
    }

    @Test(arguments: [
        "short",
        String(repeating: "A", count: 64),
        String(repeating: "g", count: 64),
        "q3sGkcV3m3Xo3hPg1XTi2yqBQ8BT5_WIzhDt7Bq0Lnk",
    ])
    func aSessionKeyMustBeASHA256InLowercaseHex(_ tokenHash: String) throws {
        let database = try AppDatabase.inMemory()
        try database.writer.write { db in
            try db.execute(sql: """
                INSERT INTO users (id, email, displayName, createdAt, updatedAt, version)
                VALUES ('6f0c2a4e-0000-4000-8000-000000000001', NULL, '', '2026-03-01T09:00:00.000Z', '2026-03-01T09:00:00.000Z', 1)
                """)
        }
        let insert = """
            INSERT INTO sessions (tokenHash, userId, kind, createdAt, expiresAt, lastUsedAt)
            VALUES (?, '6f0c2a4e-0000-4000-8000-000000000001', 'api', '2026-03-01T09:00:00.000Z',
                    '2026-03-31T09:00:00.000Z', '2026-03-01T09:00:00.000Z')
            """
        #expect(throws: DatabaseError.self) {
            try database.writer.write { db in try db.execute(sql: insert, arguments: [tokenHash]) }
        }
        try database.writer.write { db in try db.execute(sql: insert, arguments: [String(repeating: "0a", count: 32)]) }
    }
}
