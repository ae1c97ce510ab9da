import ArgumentParser
import Foundation
import WDietFoodData
import WDietSQLite
import WDietStorage
import WDietStore

/// `wdiet foods`: the food catalog.
struct FoodsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "foods",
        abstract: "Search the USDA food catalog.",
        subcommands: [Search.self]
    )

    /// `wdiet foods search QUERY`: what the app's food field shows while a person types.
    struct Search: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "As-you-type food search: id, name, kcal and macros per 100 g, household measures.",
            discussion: """
                The last word may be unfinished ("banan"); word order and plurals do not matter. \
                When the database has no catalog yet and the SR28 files are found, they are imported first.
                """
        )

        @Argument(help: "What to search for, e.g. \"chicken breast\".")
        var query: String

        @Option(help: "How many results to show (1–100).")
        var limit: Int = 10

        @Flag(help: "Print JSON.")
        var json = false

        @Option(help: "SQLite database file (default: $\(StoreLocation.environmentVariable), then \(StoreLocation.defaultSQLitePath)).")
        var database: String?

        @Option(help: "Folder with the SR28 files, for the first-use import (default: $\(FoodDataLocation.environmentVariable), then \(FoodDataLocation.defaultPath)).")
        var from: String?

        func validate() throws {
            guard (1...100).contains(limit) else { throw ValidationError("--limit must be between 1 and 100.") }
            guard !FoodSearchQuery(query).isEmpty else {
                throw ValidationError("Type a food to search for, e.g. wdiet foods search \"banana\".")
            }
        }

        func run() throws {
            let location = try StoreLocation.resolve(option: database)
            let appDatabase = try location.openSQLite(
                .migrating, for: "wdiet foods search",
                instead: "pass --database FILE, or search through the server (GET /api/v1/foods/search?q=…)")
            if try !appDatabase.isFoodCatalogLoaded {
                // The README's first command is a search: import on first use when the files are at hand.
                guard let directory = FoodDataLocation.directory(from: from) else {
                    throw CommandFailure(
                        "The food catalog in \(location) is empty. " + FoodDataLocation.missingMessage(from: from)
                    )
                }
                FileHandle.standardError.write(Data("Importing the USDA food catalog from \(directory.path) (first use)...\n".utf8))
                _ = try appDatabase.importFoodCatalog(from: directory)
            }
            let results = try appDatabase.searchFoods(query, limit: limit)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(results), as: UTF8.self))
            } else if results.isEmpty {
                print("No food matches \"\(query)\".")
            } else {
                print(results.map(Self.describe).joined(separator: "\n"))
            }
        }

        static func describe(_ food: FoodSearchResult) -> String {
            func grams(_ value: Double?) -> String { value.map { format($0) + " g" } ?? "–" }
            let kcal = food.kcal.map { format($0) + " kcal" } ?? "– kcal"
            var lines = [
                "\(food.id)  \(food.name)",
                "       per 100 g: \(kcal) · protein \(grams(food.protein)) · carbs \(grams(food.carbohydrate)) · fat \(grams(food.fat))",
            ]
            if !food.measures.isEmpty {
                let measures = food.measures.map { "\(format($0.amount)) \($0.description) = \(format($0.grams)) g" }
                lines.append("       measures: " + measures.joined(separator: " · "))
            }
            return lines.joined(separator: "\n")
        }

        /// At most two decimals, none when whole: "89", "1.09", "0.5".
        static func format(_ value: Double) -> String {
            let rounded = (value * 100).rounded() / 100
            if rounded == rounded.rounded() { return String(Int(rounded)) }
            var text = String(format: "%.2f", rounded)
            while text.hasSuffix("0") { text.removeLast() }
            return text
        }
    }
}
