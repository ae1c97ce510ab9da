/// One versioned step of the PostgreSQL schema. Once merged, a migration is never edited: a change is a new
/// migration with a higher version. The coach tables use versions 1–99 (`PostgresCoachSchema`), the food catalog
/// 101–199 (`PostgresFoodCatalogSchema`), so the two lists can grow independently.
public struct PostgresMigration: Sendable {
    public let version: Int
    public let name: String
    /// Run in order, in one transaction together with the bookkeeping row.
    public let statements: [String]

    public init(version: Int, name: String, statements: [String]) {
        self.version = version
        self.name = name
        self.statements = statements
    }
}
