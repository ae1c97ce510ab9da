import Foundation
import WDietCore
import WDietSQLite
import WDietStorage
import WDietStore

/// The export part of `wdiet-dev bench`: one user with 10,000 records (8,000 meals, 1,500 weights, 500 analytics events)
/// in a SQLite file, exported as the server does it — the store's read, then the JSON document or the CSV zip —
/// several times; and the JSON read back and imported into a fresh account.
enum ExportBench {
    struct Result {
        var records: Int
        var jsonBytes: Int
        var zipBytes: Int
        var json: [Double]
        var csv: [Double]
        var importing: [Double]
    }

    static func run(runs: Int, directory: URL) async throws -> Result {
        let database = try AppDatabase.open(path: directory.appendingPathComponent("export-bench.sqlite").path)
        let users = SQLiteUserStore(database: database)
        let meals = SQLiteMealStore(database: database)
        let weights = SQLiteWeightStore(database: database)
        let analytics = SQLiteAnalyticsStore(database: database)
        let userData = SQLiteUserDataStore(database: database)
        let zone = TimeZone(identifier: "Europe/Berlin") ?? .gmt
        let start = LocalDate(year: 2024, month: 1, day: 1) ?? LocalDate(daysSinceEpoch: 19_723)

        let userId = UUID()
        _ = try await users.createUser(id: userId, email: "bench@example.com", displayName: "Bench")
        _ = try await SQLiteProfileStore(database: database).saveProfile(
            Profile(dateOfBirth: LocalDate(year: 1990, month: 5, day: 1) ?? start, sex: .female, heightCm: 168, weightKg: 82,
                    goal: .lose, activity: .light, timeZoneIdentifier: zone.identifier, planStartDate: start),
            userId: userId, expectedVersion: nil
        )
        // 8,000 meals: 5 a day over 1,600 days, a day's batch in one transaction, as a syncing client sends them.
        for day in 0..<1_600 {
            let midnight = start.adding(days: day).startInstant(in: zone)
            let dayMeals = (0..<5).map { index in
                Meal(name: "Meal \(index + 1), day \(day)", kcal: 300 + Double(index * 40), protein: 20.5, carbs: 35, fat: 9,
                     fiber: 4, loggedAt: midnight.addingTimeInterval((8 + Double(index) * 2.5) * 3_600))
            }
            _ = try await meals.saveMeals(dayMeals, userId: userId, timeZone: zone)
        }
        let entries = (0..<1_500).map { day in
            WeightEntry(kg: 82 - Double(day) * 0.01, loggedAt: start.adding(days: day).startInstant(in: zone).addingTimeInterval(7 * 3_600))
        }
        _ = try await weights.saveWeights(entries, userId: userId, timeZone: zone)
        for index in 0..<500 {
            let event = AnalyticsEvent(
                name: .screenView, properties: ["screen_name": "dashboard"],
                occurredAt: start.startInstant(in: zone).addingTimeInterval(Double(index) * 86_400)
            )
            try await analytics.recordEvent(event, userId: userId)
        }

        var result = Result(records: 0, jsonBytes: 0, zipBytes: 0, json: [], csv: [], importing: [])
        var lastJSON = Data()
        for run in 0...runs {
            // Run 0 warms the caches and is not counted.
            var began = DispatchTime.now().uptimeNanoseconds
            let data = try await userData.exportUserData(userId: userId)
            let json = try ExportDocument(data, exportedAt: Date()).jsonData()
            let jsonMilliseconds = milliseconds(since: began)
            began = DispatchTime.now().uptimeNanoseconds
            let zipped = try ExportCSV.zip(ExportDocument(try await userData.exportUserData(userId: userId), exportedAt: Date()))
            let csvMilliseconds = milliseconds(since: began)
            precondition(data.meals.count == 8_000 && data.weights.count == 1_500 && data.analyticsEvents.count == 500)
            guard run > 0 else { continue }
            result.json.append(jsonMilliseconds)
            result.csv.append(csvMilliseconds)
            result.records = data.meals.count + data.weights.count + data.analyticsEvents.count
            result.jsonBytes = json.count
            result.zipBytes = zipped.count
            lastJSON = json
        }
        // The import: the JSON read and checked, then written into a new account, all in one transaction.
        for _ in 0..<max(1, runs / 2) {
            let fresh = UUID()
            _ = try await users.createUser(id: fresh, email: nil, displayName: "")
            let began = DispatchTime.now().uptimeNanoseconds
            let data = try ExportDocument.read(json: lastJSON).importValue(into: fresh).get()
            let summary = try await userData.importUserData(data, into: fresh)
            result.importing.append(milliseconds(since: began))
            precondition(summary.meals == 8_000 && summary.weights == 1_500 && summary.analyticsEvents == 500)
        }
        return result
    }

    static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}
