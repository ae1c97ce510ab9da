import GRDB

extension AppDatabase {
    /// What an import under way has written (issue 21 item 3): each chunk's range of change versions, so that undoing
    /// a failed or interrupted import deletes exactly its rows — never what the person saved from another device
    /// between two chunks (the one change counter numbers each write transaction's rows without a gap, and no other
    /// write runs inside a chunk). Gone with the import's end or its user. SQLite only: PostgreSQL imports in one
    /// transaction.
    static func registerImportMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v46-import-chunks") { db in
            try db.execute(sql: """
                CREATE TABLE importChunks (
                    importId TEXT NOT NULL,
                    userId TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    firstVersion INTEGER NOT NULL,
                    lastVersion INTEGER NOT NULL CHECK (lastVersion >= firstVersion)
                );
                CREATE INDEX importChunks_import ON importChunks(importId);
                CREATE INDEX importChunks_user ON importChunks(userId);
                """)
        }
    }
}
