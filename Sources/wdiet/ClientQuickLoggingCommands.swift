import ArgumentParser
import Foundation
import WDietClient
import WDietCore

/// Issue 17's quick logging on the command line, offline first like every client command: copy a day or a slot,
/// the recent foods, favourites and saved meals (synced as generic rows by `sync`).

/// `wdiet client copy --from 2026-03-01 [--slot breakfast] [--to 2026-03-02]`: "same as yesterday".
struct ClientCopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy a day's meals (or one slot's) to another day, each at the same time of day (default: to today)."
    )

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "The day to copy from, YYYY-MM-DD.") var from: String
    @Option(help: "Only this slot: breakfast, lunch, dinner or snack.") var slot: MealSlot?
    @Option(help: "The day to copy to, YYYY-MM-DD (default: today in the profile's time zone).") var to: String?

    func run() throws {
        let store = try options.open()
        let source = try ClientDay.parse(from, option: "--from")
        let target = try to.map { try ClientDay.parse($0, option: "--to") } ?? ClientDay.today(store)
        let copies = try store.copyMeals(from: source, slot: slot, to: target)
        let what = slot.map { "\(source.iso) (\($0.rawValue))" } ?? source.iso
        let kcal = copies.reduce(0) { $0 + $1.kcal }
        print("Copied \(copies.count == 1 ? "1 meal" : "\(copies.count) meals") of \(what) to \(target.iso), \(ClientFormat.number(kcal)) kcal. \(try ClientPending.line(store))")
    }
}

/// `wdiet client recents`: the foods logged lately, ranked as the server ranks them (the slot of now first).
struct ClientRecentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recents", abstract: "List the recent foods with the portion last logged, for the time of day now.")

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "How many, 1–50.") var limit: Int = 10

    func run() throws {
        guard (1...50).contains(limit) else { throw ValidationError("--limit must be between 1 and 50, not \(limit)") }
        let store = try options.open()
        let recents = try store.recents(now: Date(), limit: limit)
        if recents.isEmpty { print("No recent foods yet: log a meal first."); return }
        for entry in recents {
            let meal = entry.last
            let portion = meal.grams.map { ", \(ClientFormat.number($0)) g" } ?? ""
            print("\(meal.name)\(portion) — \(ClientFormat.number(meal.kcal)) kcal (logged \(entry.timesLogged)×; meal \(meal.id.uuidString.lowercased()))")
        }
    }
}

/// `wdiet client favourite --meal ID` stars a logged meal; `--remove ID` un-stars; alone it lists them.
struct ClientFavouritesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourites", abstract: "List the favourites, star a logged meal (--add-meal ID) or remove one (--remove ID).")

    @OptionGroup var options: ClientStoreOptions
    @Option(name: .customLong("add-meal"), help: "Star the food of this logged meal (its id).") var addMeal: String?
    @Option(help: "Remove this favourite (its id).") var remove: String?

    func run() throws {
        let store = try options.open()
        if addMeal != nil && remove != nil { throw ValidationError("Give at most one of --add-meal or --remove") }
        if let addMeal {
            let id = try ClientID.parse(addMeal, option: "--add-meal")
            guard let meal = try store.meal(id: id) else { throw CommandFailure("no meal \(addMeal) on this device") }
            let favourite = Favourite(meal: meal, createdAt: Date())
            try store.saveFavourite(favourite)
            print("Starred \(meal.name) (favourite \(favourite.id.uuidString.lowercased())). \(try ClientPending.line(store))")
            return
        }
        if let remove {
            let id = try ClientID.parse(remove, option: "--remove")
            guard try store.favourites().contains(where: { $0.id == id }) else { throw CommandFailure("no favourite \(remove) on this device") }
            try store.deleteFavourite(id: id)
            print("Removed the favourite. \(try ClientPending.line(store))")
            return
        }
        let favourites = try store.favourites()
        if favourites.isEmpty { print("No favourites yet: star a logged meal with --add-meal ID."); return }
        for favourite in favourites {
            let amount = favourite.grams.map { ", \(ClientFormat.number($0)) g" } ?? favourite.kcal.map { ", \(ClientFormat.number($0)) kcal" } ?? ""
            print("\(favourite.name)\(amount) (\(favourite.id.uuidString.lowercased()))")
        }
    }
}

/// `wdiet client saved-meals`: list them; `--save NAME --date D [--slot S] [--servings N]` saves a day's (or slot's)
/// meals as one; `--log ID [--servings N] [--at …]` logs one; `--delete ID` deletes one.
struct ClientSavedMealsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "saved-meals",
        abstract: "List saved meals, save a day's or a slot's meals as one (--save NAME --date D), log one (--log ID) or delete one.")

    @OptionGroup var options: ClientStoreOptions
    @Option(help: "Save the meals of --date (and --slot) under this name.") var save: String?
    @Option(help: "With --save: the day whose meals make it, YYYY-MM-DD.") var date: String?
    @Option(help: "With --save: only this slot; with --log: the slot to log it in.") var slot: MealSlot?
    @Option(help: "With --save: how many servings the foods make; with --log: how many are eaten (0.1–100).") var servings: Double?
    @Option(help: "Log this saved meal (its id).") var log: String?
    @Option(help: "With --log: when, as an ISO 8601 instant (default: now).") var at: String?
    @Option(help: "Delete this saved meal (its id).") var delete: String?

    func run() throws {
        let store = try options.open()
        guard [save != nil, log != nil, delete != nil].filter({ $0 }).count <= 1 else {
            throw ValidationError("Give at most one of --save, --log or --delete")
        }
        if let save {
            guard let date else { throw ValidationError("--save needs --date: the day whose meals make the saved meal") }
            let day = try ClientDay.parse(date, option: "--date")
            guard let zone = try store.profile()?.timeZone else { throw CommandFailure("no profile on this device: set it with `wdiet client profile …`") }
            let meals = try store.meals(on: day).filter { slot == nil || $0.slot(in: zone) == slot }
            guard !meals.isEmpty else { throw CommandFailure("no meals on \(day.iso)\(slot.map { " (\($0.rawValue))" } ?? "") to save") }
            let items = meals.map { meal in
                SavedMeal.Item(
                    name: meal.name, foodId: meal.source == .database ? meal.foodId : nil, grams: meal.grams, kcal: meal.kcal,
                    protein: meal.protein, carbs: meal.carbs, fat: meal.fat, fiber: meal.fiber)
            }
            let saved = SavedMeal(name: save, servings: servings ?? 1, items: items, slot: slot, createdAt: Date())
            try store.saveSavedMeal(saved)
            print("Saved \(saved.name): \(items.count == 1 ? "1 food" : "\(items.count) foods"), \(ClientFormat.number(saved.perServing.kcal)) kcal a serving (\(saved.id.uuidString.lowercased())). \(try ClientPending.line(store))")
            return
        }
        if let log {
            let id = try ClientID.parse(log, option: "--log")
            let meals = try store.logSavedMeal(id: id, servings: servings ?? 1, loggedAt: try ClientFormat.instant(at), slot: slot)
            let kcal = meals.reduce(0) { $0 + $1.kcal }
            print("Logged \(meals.count == 1 ? "1 meal" : "\(meals.count) meals"), \(ClientFormat.number(kcal)) kcal. \(try ClientPending.line(store))")
            return
        }
        if let delete {
            let id = try ClientID.parse(delete, option: "--delete")
            guard try store.savedMeal(id: id) != nil else { throw CommandFailure("no saved meal \(delete) on this device") }
            try store.deleteSavedMeal(id: id)
            print("Deleted the saved meal. \(try ClientPending.line(store))")
            return
        }
        let saved = try store.savedMeals()
        if saved.isEmpty { print("No saved meals yet: save a day's meals with --save NAME --date YYYY-MM-DD."); return }
        for meal in saved {
            let names = meal.items.map(\.name).joined(separator: ", ")
            print("\(meal.name) — \(ClientFormat.number(meal.perServing.kcal)) kcal a serving, \(ClientFormat.number(meal.servings)) serving\(meal.servings == 1 ? "" : "s"): \(names) (\(meal.id.uuidString.lowercased()))")
        }
    }
}

extension MealSlot: ExpressibleByArgument {}

/// A `YYYY-MM-DD` option, and today in the device's profile's time zone.
enum ClientDay {
    static func parse(_ text: String, option: String) throws -> LocalDate {
        guard let day = LocalDate(iso: text) else { throw ValidationError("\(option) must be a date as YYYY-MM-DD, not '\(text)'") }
        return day
    }

    static func today(_ store: ClientStore) throws -> LocalDate {
        guard let zone = try store.profile()?.timeZone else {
            throw CommandFailure("no profile on this device: set it with `wdiet client profile …` or sync after login")
        }
        return LocalDate(Date(), in: zone)
    }
}

/// An id option: a UUID as the commands print them.
enum ClientID {
    static func parse(_ text: String, option: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw ValidationError("\(option) must be an id such as 0190c5a2-…, not '\(text)'") }
        return id
    }
}
