import ArgumentParser
import Foundation
import WDietSQLite

/// `wdiet import-foods`: loads the USDA SR28 files into the database's food catalog.
struct ImportFoodsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-foods",
        abstract: "Import the USDA SR28 food catalog into the database (a second run with the same files changes nothing)."
    )

    @Option(help: "Folder with the five SR28 files (default: $WDIET_FOOD_DATA, then ../shared/datasets/usda-sr28).")
    var from: String?

    @Option(help: "SQLite database file.")
    var database: String = DataLocation.defaultDatabasePath

    func run() throws {
        guard let directory = DataLocation.foodDataDirectory(from: from) else {
            throw DataLocation.Failure(DataLocation.missingFoodDataMessage(from: from))
        }
        let began = DispatchTime.now().uptimeNanoseconds
        let appDatabase = try DataLocation.openDatabase(database)
        let summary = try appDatabase.importFoodCatalog(from: directory)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
        print(Self.describe(summary, from: directory, database: database, seconds: seconds))
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
