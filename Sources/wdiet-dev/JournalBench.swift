import Foundation
import WDietCore
import WDietStore

/// The Journal part of `wdiet-dev bench` (issue 18): one user with 10,000 entries (about 3.4 a day over 8 years,
/// realistic dishes, some voice and photo entries), written through the store's sync push in batches of 1,000.
/// Then, timed: a search (`JournalStore.search`, a mix of one-word, two-word and partial-word queries, limit 50) and
/// a year's insights as the Insights page needs them (`JournalStore.insights`: the year's entries and the all-time
/// history; the three "On this day" days; then the week's headline and `JournalInsights` for the year: stats,
/// records, top foods, daily counts, categories, input types, timing, week over week, this month's heatmap,
/// co-occurrence). Targets: search P95 ≤ 10 ms, a year's insights P95 ≤ 50 ms.
enum JournalBench {
    struct Result {
        var writeSeconds = 0.0
        var entries = 0
        var search: [Double] = []
        var insights: [Double] = []
        var readOnly: [Double] = []
        var day: [Double] = []
        /// The process's CPU time (all its threads) per search and per year's insights, in ms: on a loaded machine
        /// the latencies include waiting for a core; this does not (PostgreSQL's own CPU is not in it).
        var searchCPU: [Double] = []
        var insightsCPU: [Double] = []
    }

    static let dishes = [
        "Idli and sambar", "Masala dosa with coconut chutney", "Oatmeal with banana", "Poha with peanuts", "Scrambled eggs on toast",
        "Upma and filter coffee", "Greek yogurt with berries", "Aloo paratha with curd", "Pancakes with maple syrup",
        "Chicken biryani with raita", "Dal tadka, rice and salad", "Rajma chawal", "Turkey sandwich and tomato soup",
        "Caesar salad with chicken", "Sambar rice and papad", "Chole bhature", "Veg thali", "Lemon rice and curd rice",
        "Quinoa bowl with avocado", "Samosa and masala chai", "Apple with peanut butter", "Handful of almonds", "Murukku and coffee",
        "Banana", "Hummus with carrots", "Mango lassi", "Green tea and biscuits", "Paneer tikka masala with naan",
        "Grilled salmon with vegetables", "Pasta with tomato sauce", "Chapati with palak paneer", "Vegetable stir fry with tofu",
        "Fish curry and rice", "Chicken curry with jeera rice", "Bisi bele bath", "Lentil soup and bread", "Pizza margherita",
        "Gulab jamun", "Kheer", "Dark chocolate", "Ice cream", "Payasam", "Apple pie", "Rasmalai", "Müsli mit Joghurt",
    ]

    static let queries = [
        "idli", "sambar", "dosa", "chicken", "biryani", "rice", "paneer", "coffee", "chai", "banana", "salad", "soup",
        "idli sambar", "chicken rice", "masala dosa", "paneer naan", "tea biscuits", "curd rice", "bir", "pan", "cho",
        "müsli", "mango lassi", "quinoa", "nothing like this",
    ]

    static func run(
        store: any JournalStore, sync: any SyncStore, users: any UserStore, iterations: Int, today: LocalDate
    ) async throws -> Result {
        var result = Result()
        let userId = UUID()
        _ = try await users.createUser(id: userId, email: nil, displayName: "Journal bench")
        var generator = SeededRandom(seed: 18)
        var entries: [JournalEntry] = []
        let firstDay = today.adding(days: -3_100)
        var day = firstDay
        while entries.count < 10_000, day <= today {
            let count = [1, 2, 3, 3, 4, 4, 5, 5][generator.next(below: 8)]
            for slot in 0..<count where entries.count < 10_000 {
                let dish = dishes[generator.next(below: dishes.count)]
                let hour = [8, 13, 16, 20, 21][slot]
                let time = JournalTime(hour: hour, minute: generator.next(below: 60))!
                let roll = generator.next(below: 10)
                let type: JournalInputType = roll < 7 ? .text : roll < 9 ? .voice : .photo
                entries.append(JournalEntry(
                    date: day, time: time, inputType: type, rawInput: type == .voice ? "um " + dish.lowercased() : dish,
                    processedDescription: dish, category: JournalCategoryDetector.detect(hour: hour, description: dish),
                    mediaIds: type == .text ? [] : [UUID()],
                    createdAt: JournalTime.instant(day, time, in: TimeZone(identifier: "UTC")!)))
            }
            day = day.adding(days: 1)
        }
        // Written as a client's sync would write them: pushes of 1,000 rows.
        let began = DispatchTime.now().uptimeNanoseconds
        for start in stride(from: 0, to: entries.count, by: SyncLimits.maxChangesPerPush) {
            let batch = entries[start..<min(start + SyncLimits.maxChangesPerPush, entries.count)]
            _ = try await sync.push(try batch.map { entry in
                SyncChange(idempotencyKey: "bench-\(entry.id)", entity: .row, op: .upsert, id: entry.id, collection: JournalEntry.collection,
                           data: try SyncRules.rowData(entry))
            }, userId: userId)
        }
        result.writeSeconds = BenchCommand.seconds(since: began)
        result.entries = try await store.count(userId: userId)

        // Warm the caches and statements, as a running server's are.
        for query in queries { _ = try await store.search(userId: userId, query: query, limit: 50) }
        _ = try await store.allEntries(userId: userId)

        for index in 0..<iterations {
            let query = queries[index % queries.count]
            var cpu = cpuMilliseconds()
            var start = DispatchTime.now().uptimeNanoseconds
            _ = try await store.search(userId: userId, query: query, limit: 50)
            result.search.append(milliseconds(since: start))
            result.searchCPU.append(cpuMilliseconds() - cpu)

            // As the Insights page reads them: the year's entries and the all-time history, then "On this day".
            cpu = cpuMilliseconds()
            start = DispatchTime.now().uptimeNanoseconds
            let insights = try await store.insights(userId: userId, today: today, period: .year)
            for day in [today.adding(days: -7), today.adding(days: -30), today.adding(days: -365)] {
                _ = try await store.entries(userId: userId, from: day, through: day)
            }
            result.readOnly.append(milliseconds(since: start))
            _ = JournalWeeklySummary(entries: insights.entries, today: today, history: insights.history).headline
            _ = insights.totalEntries(.year)
            _ = insights.consistency(.year)
            _ = insights.currentStreak
            _ = insights.longestStreak
            _ = insights.bestDay
            _ = insights.uniqueFoods
            _ = insights.topItems(.year)
            _ = insights.dailyCounts(.year)
            _ = insights.categoryDistribution(.year)
            _ = insights.inputTypeBreakdown(.year)
            _ = insights.mealTiming(.year)
            _ = insights.weekOverWeekTrend()
            _ = insights.monthlyHeatmap(year: today.year, month: today.month)
            _ = insights.coOccurrence(.year)
            result.insights.append(milliseconds(since: start))
            result.insightsCPU.append(cpuMilliseconds() - cpu)

            start = DispatchTime.now().uptimeNanoseconds
            let offset = index % 365
            _ = try await store.entries(userId: userId, from: today.adding(days: -offset), through: today.adding(days: -offset))
            result.day.append(milliseconds(since: start))
        }
        return result
    }

    static func cpuMilliseconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e3 + Double(time.tv_nsec) / 1e6
    }

    static func milliseconds(since start: UInt64) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
}

