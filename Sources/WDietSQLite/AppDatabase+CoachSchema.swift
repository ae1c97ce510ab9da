import GRDB

extension AppDatabase {
    static func registerCoachMigrations(_ migrator: inout DatabaseMigrator) {
        // Filled in by the coach store work.
    }
}
