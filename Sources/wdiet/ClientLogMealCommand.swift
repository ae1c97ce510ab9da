import ArgumentParser
import Foundation
import WDietCore

/// `wdiet client log-meal`: a manual meal, stored locally and queued for the server.
struct ClientLogMealCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log-meal",
        abstract: "Log a meal by hand on this device (works offline; `sync` sends it)."
    )

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "What was eaten.") var name: String
    @Option(help: "Calories, 1–9999 kcal.") var calories: Double
    @Option(help: "Protein in g.") var protein: Double?
    @Option(help: "Carbohydrates in g.") var carbs: Double?
    @Option(help: "Fat in g.") var fat: Double?
    @Option(help: "When, as an ISO 8601 instant (default: now), e.g. 2026-03-01T07:30:00Z.") var at: String?

    func run() throws {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw ValidationError("--name must not be empty") }
        let meal = Meal(
            name: trimmed, kcal: calories, protein: protein, carbs: carbs, fat: fat, source: .manual,
            loggedAt: try ClientFormat.instant(at))
        let store = try options.open()
        try store.saveMeal(meal)
        print("Logged \(trimmed), \(ClientFormat.number(calories)) kcal (id \(meal.id.uuidString.lowercased())). \(try ClientPending.line(store))")
    }
}
