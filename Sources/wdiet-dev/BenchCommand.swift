import ArgumentParser
import Foundation
import WDietCore
import WDietFoodData
import WDietPostgres
import WDietSQLite
import WDietStorage
import WDietStore

/// `wdiet-dev bench`: latency figures for the paths a person waits on. Each section is a `static func` with a case in
/// `Section`; `--only` runs one. A new section (the dashboard's) adds its case, its function and one line in
/// `run()`. Build with `-c release`: debug figures mean nothing.
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark food search (SR28 and a synthetic 1,000,000-food catalog), the dashboard day, the data export and sync."
    )

    enum Section: String, ExpressibleByArgument, CaseIterable {
        case search
        case dashboard
        case export
        case sync
        case journal
    }

    @Option(help: "Run one section only: \(Section.allCases.map(\.rawValue).joined(separator: ", ")).")
    var only: Section?

    @Option(help: "Folder with the SR28 files (default: $WDIET_FOOD_DATA, then ../shared/datasets/usda-sr28).")
    var from: String?

    @Option(help: "Timed queries per catalog.")
    var queries: Int = 5_000

    @Option(help: "Timed dashboard days.")
    var dashboards: Int = 5_000

    @Option(name: .customLong("export-runs"), help: "Timed exports of the 10,000-record user, each format.")
    var exportRuns: Int = 10

    @Option(name: .customLong("sync-runs"), help: "Timed runs of the sync section (each: push 1,000 new rows, push 1,000 edits, pull 1,000).")
    var syncRuns: Int = 20

    @Option(name: .customLong("journal-runs"), help: "Timed searches and year's insights of the 10,000-entry journal.")
    var journalRuns: Int = 500

    @Option(help: "A PostgreSQL database the sync section may write to (postgres://…; it is migrated), to measure it beside SQLite.")
    var postgres: String?

    @Option(name: .customLong("synthetic-foods"), help: "Size of the synthetic catalog built from SR28's words (0 skips it).")
    var syntheticFoods: Int = 1_000_000

    func validate() throws {
        guard queries > 0 else { throw ValidationError("--queries must be positive.") }
        guard dashboards > 0 else { throw ValidationError("--dashboards must be positive.") }
        guard exportRuns > 0 else { throw ValidationError("--export-runs must be positive.") }
        guard syncRuns > 0 else { throw ValidationError("--sync-runs must be positive.") }
        guard syntheticFoods >= 0 else { throw ValidationError("--synthetic-foods cannot be negative.") }
        // A mistake in the URL is found before minutes of other sections, not after them.
        if let postgres { _ = try Self.postgresLocation(postgres) }
    }

    static func postgresLocation(_ text: String) throws -> StoreLocation {
        let location = try StoreLocation(text)
        guard location.isPostgres else {
            throw CommandFailure("--postgres takes a postgres:// URL, not a file: SQLite is measured on a scratch file of its own")
        }
        return location
    }

    func run() async throws {
        #if DEBUG
        FileHandle.standardError.write(Data(
            "warning: this is a debug build; figures are not representative. Build with: swift build -c release --product wdiet-dev\n".utf8))
        #endif
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wdiet-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        if only == nil || only == .search {
            try Self.searchSection(from: from, queries: queries, syntheticFoods: syntheticFoods, directory: directory)
        }
        if only == nil || only == .dashboard {
            try await Self.dashboardSection(iterations: dashboards, directory: directory)
        }
        if only == nil || only == .export {
            try await Self.exportSection(runs: exportRuns, directory: directory)
        }
        if only == nil || only == .sync {
            try await Self.syncSection(runs: syncRuns, postgres: postgres, directory: directory)
        }
        if only == nil || only == .journal {
            try await Self.journalSection(iterations: journalRuns, postgres: postgres, directory: directory)
        }
    }

    // MARK: Search

    static func searchSection(from: String?, queries: Int, syntheticFoods: Int, directory: URL) throws {
        guard let dataDirectory = FoodDataLocation.directory(from: from) else {
            throw CommandFailure(FoodDataLocation.missingMessage(from: from))
        }
        print("== Food search")
        var began = DispatchTime.now().uptimeNanoseconds
        let catalog: SR28Catalog
        do {
            catalog = try SR28Reader.read(directory: dataDirectory)
        } catch {
            throw CommandFailure("\(error)")
        }
        print(String(format: "SR28 parsed in %.2f s", seconds(since: began)))
        let sr28 = try AppDatabase.open(path: directory.appendingPathComponent("sr28.sqlite").path)
        began = DispatchTime.now().uptimeNanoseconds
        _ = try sr28.replaceFoodCatalog(with: catalog)
        print(String(format: "SR28 imported in %.2f s (%d foods)", seconds(since: began), catalog.foods.count))

        var generator = SeededRandom(seed: 28)
        let mix = QueryMix(catalog: catalog, count: queries, generator: &generator)
        print("Query mix: \(mix.description)")
        try measure(label: "SR28 (\(catalog.foods.count) foods)", database: sr28, queries: mix.queries)
        try checkCorrectionWalk(sr28.foodSearchIndex().vocabulary)

        guard syntheticFoods > 0 else { return }
        began = DispatchTime.now().uptimeNanoseconds
        let synthetic = SyntheticCatalog.make(from: catalog, count: syntheticFoods, generator: &generator)
        print(String(format: "Synthetic catalog of %d foods generated in %.2f s", syntheticFoods, seconds(since: began)))
        let big = try AppDatabase.open(path: directory.appendingPathComponent("synthetic.sqlite").path)
        began = DispatchTime.now().uptimeNanoseconds
        _ = try big.replaceFoodCatalog(with: synthetic)
        print(String(format: "Synthetic catalog imported in %.2f s", seconds(since: began)))
        try measure(label: "synthetic (\(syntheticFoods) foods)", database: big, queries: mix.queries)
    }

    /// The typo correction's trie walk against the scan it replaced, over typos of every 5th word of SR28's
    /// vocabulary (over 10,000 lookups: each typed word whole and as a prefix): the test runs every 25th word in its debug
    /// build (`FoodSearchCorrectionWalkTests`), this the whole walk in release. Fails the benchmark on a difference.
    static func checkCorrectionWalk(_ vocabulary: FoodSearchVocabulary) throws {
        let began = DispatchTime.now().uptimeNanoseconds
        let check = vocabulary.checkCorrectionWalk(everyNthWord: 5)
        print(String(
            format: "Typo correction: the walk picks what the scan picks for %d of %d lookups (%d corrected), in %.2f s",
            check.checked - check.differing.count, check.checked, check.corrected, seconds(since: began)))
        guard check.differing.isEmpty else {
            throw CommandFailure("the correction walk differs from the scan: \(check.differing.prefix(5).joined(separator: "; "))")
        }
    }

    private static func measure(label: String, database: AppDatabase, queries: [String]) throws {
        // Warm the page cache and the statement cache the way a running server would be.
        for query in queries.prefix(200) { _ = try database.searchFoods(query, limit: 10) }
        var latencies: [Double] = []
        latencies.reserveCapacity(queries.count)
        var resultCount = 0
        let began = DispatchTime.now().uptimeNanoseconds
        for query in queries {
            let start = DispatchTime.now().uptimeNanoseconds
            resultCount += try database.searchFoods(query, limit: 10).count
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        let total = seconds(since: began)
        let stats = LatencyStats(latencies)
        print(String(
            format: "%@: %d queries, P50 %.3f ms, P95 %.3f ms, P99 %.3f ms, max %.3f ms, %.0f queries/s, %.1f results/query",
            label, queries.count, stats.p50, stats.p95, stats.p99, stats.max, Double(queries.count) / total,
            Double(resultCount) / Double(queries.count)
        ))
    }

    // MARK: Dashboard

    static func dashboardSection(iterations: Int, directory: URL) async throws {
        print("== Dashboard day (365 days of history: 5 meals and 1 weight a day)")
        let result = try await DashboardBench.run(iterations: iterations, directory: directory)
        print(String(format: "History written in %.2f s (365 days: a batch of 5 meals and 1 weight each)", result.historySeconds))
        for (label, latencies) in [("read from SQLite + computed", result.fullRead), ("computed from memory", result.computeOnly)] {
            let stats = LatencyStats(latencies)
            let total = latencies.reduce(0, +) / 1_000
            print(String(
                format: "%@: %d days, P50 %.3f ms, P95 %.3f ms, P99 %.3f ms, max %.3f ms, %.0f dashboards/s",
                label, latencies.count, stats.p50, stats.p95, stats.p99, stats.max, Double(latencies.count) / total
            ))
        }
    }

    // MARK: Export

    static func exportSection(runs: Int, directory: URL) async throws {
        print("== Data export (one user: 8,000 meals, 1,500 weights, 500 analytics events, a profile)")
        let result = try await ExportBench.run(runs: runs, directory: directory)
        for (label, latencies, bytes) in [("JSON", result.json, result.jsonBytes), ("CSV zip", result.csv, result.zipBytes)] {
            let stats = LatencyStats(latencies)
            print(String(
                format: "export %@ (%d records, %.2f MB): %d runs, P50 %.0f ms, P95 %.0f ms, max %.0f ms",
                label, result.records, Double(bytes) / 1_048_576, latencies.count, stats.p50, stats.p95, stats.max
            ))
        }
        let stats = LatencyStats(result.importing)
        print(String(format: "import JSON into a new account: %d runs, P50 %.0f ms, P95 %.0f ms, max %.0f ms",
                     result.importing.count, stats.p50, stats.p95, stats.max))
    }

    // MARK: Sync

    static func syncSection(runs: Int, postgres: String?, directory: URL) async throws {
        print("== Sync (per run: a push of 1,000 new rows, a push of 1,000 edits, a pull of 1,000 changes)")
        let sqlite = try AppDatabase.open(path: directory.appendingPathComponent("sync-bench.sqlite").path)
        report("SQLite", try await SyncBench.run(
            sync: SQLiteSyncStore(database: sqlite), users: SQLiteUserStore(database: sqlite), profiles: SQLiteProfileStore(database: sqlite),
            runs: runs))
        guard let postgres else {
            print("PostgreSQL: skipped (pass --postgres postgres://… to measure it)")
            return
        }
        let store = try await postgresLocation(postgres).open(.migrating, postgresConnections: 4)
        guard case .postgres(let database) = store.backend else { return }
        do {
            let client = database.client
            report("PostgreSQL", try await SyncBench.run(
                sync: PostgresSyncStore(client: client), users: PostgresUserStore(client: client), profiles: PostgresProfileStore(client: client),
                runs: runs))
            await store.close()
        } catch {
            await store.close()
            throw error
        }
    }

    // MARK: Journal

    static func journalSection(iterations: Int, postgres: String?, directory: URL) async throws {
        print("== Journal (one user with 10,000 entries over 8 years)")
        let today = LocalDate(Date(), in: TimeZone(identifier: "UTC")!)
        let sqlite = try AppDatabase.open(path: directory.appendingPathComponent("journal-bench.sqlite").path)
        journalReport("SQLite", try await JournalBench.run(
            store: SQLiteJournalStore(database: sqlite), sync: SQLiteSyncStore(database: sqlite), users: SQLiteUserStore(database: sqlite),
            iterations: iterations, today: today))
        guard let postgres else {
            print("PostgreSQL: skipped (pass --postgres postgres://… to measure it)")
            return
        }
        let store = try await postgresLocation(postgres).open(.migrating, postgresConnections: 4)
        guard case .postgres(let database) = store.backend else { return }
        do {
            let client = database.client
            journalReport("PostgreSQL", try await JournalBench.run(
                store: PostgresJournalStore(client: client), sync: PostgresSyncStore(client: client), users: PostgresUserStore(client: client),
                iterations: iterations, today: today))
            await store.close()
        } catch {
            await store.close()
            throw error
        }
    }

    private static func journalReport(_ backend: String, _ result: JournalBench.Result) {
        print(String(format: "%@: %d entries written in %.2f s (10 pushes of 1,000)", backend, result.entries, result.writeSeconds))
        for (label, values, target) in [
            ("search (limit 50)", result.search, "target P95 10 ms"), ("a year's insights (read + computed)", result.insights, "target P95 50 ms"),
            ("  of which reading (the year's entries, the history, 3 days)", result.readOnly, ""), ("a day's entries", result.day, ""),
        ] {
            let stats = LatencyStats(values)
            print(String(format: "%@ %@: %d runs, P50 %.2f ms, P95 %.2f ms, P99 %.2f ms, max %.2f ms %@",
                         backend, label, values.count, stats.p50, stats.p95, stats.p99, stats.max, target))
        }
        for (label, values) in [("search", result.searchCPU), ("a year's insights", result.insightsCPU)] {
            let stats = LatencyStats(values)
            print(String(format: "%@ %@, this process's CPU time: mean %.2f ms, P50 %.2f ms, P95 %.2f ms",
                         backend, label, values.reduce(0, +) / Double(max(values.count, 1)), stats.p50, stats.p95))
        }
    }

    private static func report(_ backend: String, _ result: SyncBench.Result) {
        for (label, values, target) in [("push 1,000 new", result.create, 200.0), ("push 1,000 edits", result.edit, 200.0), ("pull 1,000", result.pull, 100.0)] {
            let stats = LatencyStats(values)
            print(String(
                format: "%@ %@: %d runs, P50 %.1f ms, P95 %.1f ms, max %.1f ms (target %.0f ms)",
                backend, label, values.count, stats.p50, stats.p95, stats.max, target
            ))
        }
    }

    static func seconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }
}

/// Percentiles of a set of latencies (nearest rank).
struct LatencyStats {
    var p50 = 0.0, p95 = 0.0, p99 = 0.0, max = 0.0

    init(_ values: [Double]) {
        let sorted = values.sorted()
        guard let last = sorted.last else { return }
        func percentile(_ p: Double) -> Double {
            sorted[Swift.min(sorted.count - 1, Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1)]
        }
        p50 = percentile(50)
        p95 = percentile(95)
        p99 = percentile(99)
        max = last
    }
}

/// A realistic mix of what people type, drawn from SR28's own words: whole words, prefixes of 2–6 letters
/// (the field searches as they type), and two-word queries whose words occur together in a real food name.
private struct QueryMix {
    var queries: [String] = []
    var description: String

    init(catalog: SR28Catalog, count: Int, generator: inout SeededRandom) {
        // The words people search by are the heads of food names; weight them by how often they head one.
        var headWords: [String] = []
        var pairs: [(String, String)] = []
        for food in catalog.foods {
            let segments = FoodSearchRanker.segments(of: food.longDescription)
            guard let head = segments.first?.map(\.word).filter({ $0.count >= 3 && $0.allSatisfy(\.isLetter) }),
                let noun = head.last
            else { continue }
            headWords.append(noun)
            if let other = segments.dropFirst().first?.map(\.word).first(where: { $0.count >= 3 && $0.allSatisfy(\.isLetter) }) {
                pairs.append((noun, other))
            }
        }
        var full = 0, prefixes = 0, twoWords = 0, typos = 0
        for _ in 0..<count {
            let roll = generator.next(below: 100)
            if roll < 10, let word = Optional(headWords[generator.next(below: headWords.count)]), word.count >= 5 {
                // A typo in a whole word (a letter dropped, doubled, swapped or replaced): the search corrects it.
                queries.append(Self.misspelt(word, generator: &generator))
                typos += 1
            } else if roll < 35 || pairs.isEmpty {
                queries.append(headWords[generator.next(below: headWords.count)])
                full += 1
            } else if roll < 75 {
                let word = headWords[generator.next(below: headWords.count)]
                let length = Swift.min(word.count, 2 + generator.next(below: 5))
                queries.append(String(word.prefix(length)))
                prefixes += 1
            } else {
                let (first, second) = pairs[generator.next(below: pairs.count)]
                // Half of them still being typed: "chicken bre".
                let typed = generator.next(below: 2) == 0 ? second : String(second.prefix(Swift.max(2, second.count / 2)))
                queries.append(generator.next(below: 2) == 0 ? "\(first) \(typed)" : "\(typed) \(first)")
                twoWords += 1
            }
        }
        description = "\(full) whole words, \(typos) misspelt words, \(prefixes) prefixes of 2–6 letters, \(twoWords) two-word queries"
    }

    /// `word` with one edit away from its first letter.
    static func misspelt(_ word: String, generator: inout SeededRandom) -> String {
        var letters = Array(word)
        let at = 1 + generator.next(below: letters.count - 2)
        switch generator.next(below: 4) {
        case 0: letters.remove(at: at)
        case 1: letters.insert(letters[at], at: at)
        case 2: letters.swapAt(at, at + 1)
        default: letters[at] = Character(UnicodeScalar(UInt8(ascii: "a") + UInt8(generator.next(below: 26))))
        }
        return String(letters)
    }
}

/// A large catalog made of SR28's own words, so that doclists and prefixes are as skewed as in real data:
/// each food takes the head of a real food name and one to four segments from others.
private enum SyntheticCatalog {
    static func make(from catalog: SR28Catalog, count: Int, generator: inout SeededRandom) -> SR28Catalog {
        let macros = [
            NutrientNumber.energyKcal, NutrientNumber.protein, NutrientNumber.carbohydrate, NutrientNumber.fat,
            NutrientNumber.fiber,
        ]
        let templates = catalog.foods.map { food -> (head: String, rest: [Substring], food: Food) in
            let segments = food.longDescription.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            return (segments.first ?? food.longDescription, food.longDescription.split(separator: ",").dropFirst().map { $0 }, food)
        }
        let pool = templates.flatMap(\.rest).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var foods: [Food] = []
        foods.reserveCapacity(count)
        for index in 0..<count {
            let template = templates[generator.next(below: templates.count)]
            var name = template.head
            for _ in 0..<(1 + generator.next(below: 4)) where !pool.isEmpty {
                name += ", " + pool[generator.next(below: pool.count)]
            }
            var food = template.food
            food.id = "S" + String(index)
            food.longDescription = name
            food.shortDescription = ""
            food.nutrients = food.nutrients.filter { macros.contains($0.nutrientNumber) }
            food.measures = Array(food.measures.prefix(1))
            foods.append(food)
        }
        return SR28Catalog(
            foodGroups: catalog.foodGroups, nutrientDefinitions: catalog.nutrientDefinitions, foods: foods,
            contentHash: "synthetic-\(count)-\(catalog.contentHash)"
        )
    }
}
