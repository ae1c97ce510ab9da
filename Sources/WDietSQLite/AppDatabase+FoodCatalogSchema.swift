import GRDB

extension AppDatabase {
    static func registerFoodCatalogMigrations(_ migrator: inout DatabaseMigrator) {
        // Filled in by the food catalog work.
    }
}
