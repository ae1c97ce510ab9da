import ArgumentParser
import Foundation
import WDietSQLite
import WDietStorage

/// `wdiet import-foods`: loads the USDA SR28 files into the database's food catalog.
struct ImportFoodsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-foods",
        abstract: "Import the USDA SR28 food catalog into the database (a second run with the same files changes nothing)."
    )

    @Option(help: "Folder with the five SR28 files (default: $\(FoodDataLocation.environmentVariable), then \(FoodDataLocation.defaultPath)).")
    var from: String?

    @Option(help: "SQLite database file (default: $\(StoreLocation.environmentVariable), then \(StoreLocation.defaultSQLitePath)).")
    var database: String?

    static let name = "wdiet import-foods"
    /// What to do instead when the database is PostgreSQL: the server imports the catalog there on its first start.
    static let postgresInstead = "`wdiet serve --database URL --from DIR` imports the catalog into PostgreSQL when it starts"

    func run() throws {
        let location = try StoreLocation.resolve(option: database)
        try location.requireSQLite(for: Self.name, instead: Self.postgresInstead)
        // Before the file is opened (and so created): no empty database is left behind by a missing folder.
        guard let directory = FoodDataLocation.directory(from: from) else {
            throw CommandFailure(FoodDataLocation.missingMessage(from: from))
        }
        let began = DispatchTime.now().uptimeNanoseconds
        let appDatabase = try location.openSQLite(.migrating, for: Self.name, instead: Self.postgresInstead)
        let summary = try appDatabase.importFoodCatalog(from: directory)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        print(Self.describe(summary, from: directory, database: "\(location)", seconds: seconds))
    }

    static func describe(_ summary: ImportSummary, from directory: URL, database: String, seconds: Double) -> String {
        let counts = "\(summary.foods) foods, \(summary.nutrientValues) nutrient values, "
            + "\(summary.householdMeasures) household measures, \(summary.nutrientDefinitions) nutrients, "
            + "\(summary.foodGroups) food groups"
        let time = String(format: "%.2f s", seconds)
        if summary.unchanged {
            return "Food catalog in \(database) is already up to date (\(counts)); nothing changed. Checked in \(time)."
        }
        return "Imported \(counts) from \(directory.path) into \(database) in \(time)."
    }
}
