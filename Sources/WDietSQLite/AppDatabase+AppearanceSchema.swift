import GRDB

extension AppDatabase {
    /// The theme a person chose in Settings (issue 17, PRODUCT.md "appearance"): "light" or "dark", NULL for Auto
    /// (the system's). Read with every session, like `language`, so pages are written in it with no flash.
    static func registerAppearanceMigrations(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v12-user-appearance") { db in
            try db.execute(sql: "ALTER TABLE users ADD COLUMN appearance TEXT CHECK (appearance IS NULL OR appearance IN ('light', 'dark'))")
        }
    }
}
