import GRDB

extension AppDatabase {
    /// The language a person chose in Settings (issue 16: the account's setting, else the browser's
    /// `Accept-Language`): a catalog language's tag ("en", "de"), or NULL to follow the browser. Not pinned by a
    /// CHECK to today's languages, so that adding one needs no migration; the store reads only the ones it knows.
    static func registerLanguageMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v10-user-language") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN language TEXT CHECK (language IS NULL OR language <> '')")
        }
    }
}
