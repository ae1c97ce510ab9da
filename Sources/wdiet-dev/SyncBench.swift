import Foundation
import WDietCore
import WDietStore

/// The sync part of `wdiet-dev bench`: for each run a new user with a profile pushes 1,000 new rows (800 meals, 150
/// weights, 50 journal rows) in one push, then the same 1,000 rows edited from their versions, then pulls 1,000
/// changes in one page — the store's work for `POST /api/v1/sync/push` and `GET /api/v1/sync/pull` without HTTP.
/// Targets (issue 5): a push of 1,000 changes ≤ 200 ms, a pull of 1,000 ≤ 100 ms.
enum SyncBench {
    struct Result {
        var create: [Double] = []
        var edit: [Double] = []
        var pull: [Double] = []
    }

    static func run(
        sync: any SyncStore, users: any UserStore, profiles: any ProfileStore, runs: Int
    ) async throws -> Result {
        let zone = "Europe/Berlin"
        let start = LocalDate(year: 2026, month: 1, day: 1) ?? LocalDate(daysSinceEpoch: 20_454)
        let origin = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        var result = Result()
        // Run 0 warms the caches and the statements, as a running server's are; it is not counted.
        for run in 0...runs {
            let userId = UUID()
            _ = try await users.createUser(id: userId, email: nil, displayName: "Sync bench \(run)")
            _ = try await profiles.saveProfile(
                Profile(dateOfBirth: LocalDate(year: 1990, month: 5, day: 1) ?? start, sex: .female, heightCm: 168, weightKg: 82,
                        goal: .lose, activity: .light, timeZoneIdentifier: zone, planStartDate: start),
                userId: userId, expectedVersion: nil)
            let meals = (0..<800).map { index in
                Meal(name: "Meal \(index)", kcal: 300 + Double(index % 7) * 40, protein: 20.5, carbs: 35, fat: 9, fiber: 4,
                     loggedAt: origin.addingTimeInterval(Double(index) * 3 * 3_600))
            }
            let weights = (0..<150).map { index in
                WeightEntry(kg: 82 - Double(index) * 0.02, loggedAt: origin.addingTimeInterval(Double(index) * 86_400 + 7 * 3_600))
            }
            let rows = (0..<50).map { index in
                (UUID(), SyncJSON.object(["mood": .number(Double(index % 5 + 1)), "note": .string("Day \(index): slept well")]))
            }
            var creates = meals.enumerated().map { SyncChange.upsert($1, key: "\(run)-m\($0)") }
            creates += weights.enumerated().map { SyncChange.upsert($1, key: "\(run)-w\($0)") }
            creates += rows.enumerated().map { index, row in
                SyncChange(idempotencyKey: "\(run)-r\(index)", entity: .row, op: .upsert, id: row.0, collection: "diary", data: row.1)
            }
            var began = DispatchTime.now().uptimeNanoseconds
            let created = try await sync.push(creates, userId: userId)
            let createMs = milliseconds(since: began)

            var edits: [SyncChange] = []
            for (index, change) in creates.enumerated() {
                var edit = change
                edit.idempotencyKey += "-edit"
                edit.baseVersion = created[index].version
                edit.meal?.kcal += 10
                edit.weight?.kg += 0.1
                if case .object(var object) = edit.data {
                    object["edited"] = .bool(true)
                    edit.data = .object(object)
                }
                edits.append(edit)
            }
            began = DispatchTime.now().uptimeNanoseconds
            let edited = try await sync.push(edits, userId: userId)
            let editMs = milliseconds(since: began)
            guard edited.allSatisfy({ $0.status == .applied }) else { throw BenchFailure("an edit from the current version was not applied") }

            began = DispatchTime.now().uptimeNanoseconds
            let page = try await sync.pull(userId: userId, after: 0, limit: 1_000)
            let pullMs = milliseconds(since: began)
            guard page.items.count == 1_000 else { throw BenchFailure("the pull returned \(page.items.count) items, not 1,000") }
            if run > 0 {
                result.create.append(createMs)
                result.edit.append(editMs)
                result.pull.append(pullMs)
            }
        }
        return result
    }

    static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    struct BenchFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
