import ArgumentParser
import Foundation
import WDietCore

/// `wdiet client today`: the day's meals from the local store and their totals against the day's targets.
struct ClientTodayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today",
        abstract: "Show a day's meals and totals against the targets, from this device's data."
    )

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "The day, YYYY-MM-DD (default: today in the profile's time zone).") var date: String?

    func run() throws {
        let store = try options.open()
        guard let profile = try store.profile() else {
            throw CommandFailure("no profile on this device: set it with `wdiet client profile …` or sync after login")
        }
        let zone = profile.timeZone
        let day: LocalDate
        if let date {
            guard let parsed = LocalDate(iso: date) else { throw ValidationError("--date must be a date as YYYY-MM-DD, not '\(date)'") }
            day = parsed
        } else {
            day = LocalDate(Date(), in: zone)
        }
        let meals = try store.meals(on: day)
        // The day's targets as on the server's dashboard (`Targets.of`): the latest weight logged before the day began
        // (a weight logged on it counts from the next day). The device keeps the profile as saved, not its history of
        // changes, so a past day gets today's target inputs.
        let before = try store.weights().last { LocalDate($0.loggedAt, in: zone) < day }?.kg
        let targets = Targets.of(day: day, profile: profile, history: PlanHistory(), weightBeforeDayKg: before)
        let totals = DailyTotals(meals: meals)

        print("\(day.iso) (\(zone.identifier)): \(meals.count == 1 ? "1 meal" : "\(meals.count) meals")")
        for meal in meals {
            var line = "  \(ClientFormat.time(meal.loggedAt, in: zone))  \(meal.name) — \(ClientFormat.number(meal.kcal)) kcal"
            let macros = [("P", meal.protein), ("C", meal.carbs), ("F", meal.fat)].compactMap { label, value in
                value.map { "\(label) \(ClientFormat.number($0)) g" }
            }
            if !macros.isEmpty { line += " (" + macros.joined(separator: ", ") + ")" }
            print(line)
        }
        let left = targets.calories - Int(totals.kcal.rounded())
        print("Calories: \(Int(totals.kcal.rounded())) of \(targets.calories) kcal (\(left >= 0 ? "\(left) left" : "\(-left) over"))")
        print("Protein \(Int(totals.protein.rounded()))/\(targets.proteinGrams) g · Carbs \(Int(totals.carbs.rounded()))/\(targets.carbsGrams) g · Fat \(Int(totals.fat.rounded()))/\(targets.fatGrams) g")
    }
}
