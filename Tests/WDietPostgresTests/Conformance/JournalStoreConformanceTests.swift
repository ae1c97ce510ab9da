import Foundation
import Testing
import WDietCore
import WDietStore
import WDietTestSupport

/// The Journal's store (issue 18) on every backend: entries are synced rows of the collection `journal`, read back
/// from the journal table the triggers keep; a day, search, counts, tombstones and restore, conflicts, another user's
/// entries, sample data, the streak and the account's deletion.
@Suite struct JournalStoreConformanceTests {
    let today = Fixtures.date("2026-03-10")
    let written = Fixtures.utc("2026-03-10T09:00:00Z")

    func entry(
        _ description: String, on date: String, at time: String, raw: String? = nil, type: JournalInputType = .text,
        category: JournalCategory? = nil, media: [UUID] = [], createdAt: Date? = nil
    ) -> JournalEntry {
        JournalEntry(
            date: Fixtures.date(date), time: JournalTime(time)!, inputType: type, rawInput: raw ?? description,
            processedDescription: description, category: category, mediaIds: media, createdAt: createdAt ?? written)
    }

    @Test(arguments: StoreBackend.allCases)
    func savedEntriesComeBackByDayInOrderWithEveryMember(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let photo = UUID(), recording = UUID()
            let dinner = entry("Paneer tikka with naan", on: "2026-03-09", at: "19:30", category: .dinner)
            let breakfast = entry("Two idlis and sambar", on: "2026-03-09", at: "08:15", raw: "um two idlis and sambar",
                                  type: .voice, category: .breakfast, media: [recording])
            var lunch = entry("Thali", on: "2026-03-09", at: "12:45", type: .photo, media: [photo, recording])
            lunch.updatedAt = Fixtures.utc("2026-03-10T10:00:00Z").addingTimeInterval(0.25)
            let nextDay = entry("Masala chai", on: "2026-03-10", at: "07:00", category: .beverage)
            for value in [dinner, breakfast, lunch, nextDay] {
                let saved = try await stores.journal.save(value, baseVersion: nil, userId: user, today: today)
                #expect(saved.entry == value)
                #expect(saved.version > 0)
            }
            try await stores.journal.save(entry("Not mine", on: "2026-03-09", at: "09:00"), baseVersion: nil, userId: other, today: today)

            let day = try await stores.journal.entries(userId: user, from: Fixtures.date("2026-03-09"), through: Fixtures.date("2026-03-09"))
            #expect(day.map(\.entry) == [breakfast, lunch, dinner])
            #expect(day.allSatisfy { $0.deletedAt == nil })
            let all = try await stores.journal.allEntries(userId: user)
            #expect(all == [breakfast, lunch, dinner, nextDay])
            #expect(try await stores.journal.count(userId: user) == 4)
            #expect(try await stores.journal.count(userId: other) == 1)
            #expect(try await stores.journal.entry(userId: user, id: lunch.id)?.entry == lunch)
            #expect(try await stores.journal.entry(userId: other, id: lunch.id) == nil)
            let counts = try await stores.journal.dayCounts(userId: user, from: Fixtures.date("2026-03-01"), through: Fixtures.date("2026-03-31"))
            #expect(counts == [Fixtures.date("2026-03-09"): 3, Fixtures.date("2026-03-10"): 1])

            // Same-minute entries keep the order they were written in.
            let first = entry("Coffee", on: "2026-03-08", at: "10:00", createdAt: Fixtures.utc("2026-03-08T10:00:01Z"))
            let second = entry("Croissant", on: "2026-03-08", at: "10:00", createdAt: Fixtures.utc("2026-03-08T10:00:02Z"))
            try await stores.journal.save(second, baseVersion: nil, userId: user, today: today)
            try await stores.journal.save(first, baseVersion: nil, userId: user, today: today)
            let eighth = try await stores.journal.entries(userId: user, from: Fixtures.date("2026-03-08"), through: Fixtures.date("2026-03-08"))
            #expect(eighth.map(\.entry.processedDescription) == ["Coffee", "Croissant"])
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func editsFollowSyncRulesAndDeletesCanBeUndone(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            var value = entry("Dosa", on: "2026-03-09", at: "08:00", category: .breakfast)
            let created = try await stores.journal.save(value, baseVersion: nil, userId: user, today: today)
            value.processedDescription = "Masala dosa"
            value.updatedAt = Fixtures.utc("2026-03-10T09:30:00Z")
            let edited = try await stores.journal.save(value, baseVersion: created.version, userId: user, today: today)
            #expect(edited.version > created.version)
            // An edit from the old version loses to the newer one; the server's copy comes back.
            var stale = value
            stale.processedDescription = "Plain dosa"
            await #expect(throws: JournalConflict.self) {
                try await stores.journal.save(stale, baseVersion: created.version, userId: user, today: today)
            }
            do {
                try await stores.journal.save(stale, baseVersion: created.version, userId: user, today: today)
            } catch let conflict as JournalConflict {
                #expect(conflict.server?.entry.processedDescription == "Masala dosa")
                #expect(conflict.server?.version == edited.version)
            }

            let tombstone = try #require(try await stores.journal.delete(userId: user, id: value.id, baseVersion: edited.version))
            #expect(tombstone.deletedAt != nil)
            #expect(tombstone.version > edited.version)
            #expect(try await stores.journal.entries(userId: user, from: Fixtures.date("2026-03-09"), through: Fixtures.date("2026-03-09")).isEmpty)
            #expect(try await stores.journal.count(userId: user) == 0)
            let held = try #require(try await stores.journal.entry(userId: user, id: value.id))
            #expect(held.isDeleted)
            #expect(held.entry == value)
            #expect(try await stores.journal.delete(userId: user, id: value.id, baseVersion: nil) == nil)
            #expect(try await stores.journal.delete(userId: user, id: UUID(), baseVersion: nil) == nil)
            // An offline edit never resurrects it.
            await #expect(throws: JournalConflict.self) {
                try await stores.journal.save(value, baseVersion: edited.version, userId: user, today: today)
            }

            let restored = try await stores.journal.restore(userId: user, id: value.id)
            #expect(restored.entry == value)
            #expect(restored.version > tombstone.version)
            #expect(try await stores.journal.allEntries(userId: user) == [value])
            await #expect(throws: StoreError.self) { try await stores.journal.restore(userId: user, id: UUID()) }

            // The pull carries every step as the row of the collection `journal`.
            let pulled = try await stores.sync.pull(userId: user, after: 0, limit: 100).items.filter { $0.collection == "journal" }
            #expect(pulled.count == 1)
            #expect(try StoredJournalEntry(item: pulled[0])?.entry == value)
            #expect(pulled[0].version == restored.version)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func invalidEntriesAreRefusedByTheStoreAndByAPush(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let blank = entry("   ", on: "2026-03-09", at: "08:00")
            await #expect(throws: JournalEntry.Invalid.self) {
                try await stores.journal.save(blank, baseVersion: nil, userId: user, today: today)
            }
            // Two days ahead of today is refused, one day ahead (a device a time zone ahead) is not.
            let ahead = entry("Toast", on: "2026-03-12", at: "08:00")
            await #expect(throws: JournalEntry.Invalid.self) {
                try await stores.journal.save(ahead, baseVersion: nil, userId: user, today: today)
            }
            try await stores.journal.save(entry("Toast", on: "2026-03-11", at: "08:00"), baseVersion: nil, userId: user, today: today)
            // A push is checked by the same rules.
            let textWithPhoto = entry("Toast", on: "2026-03-09", at: "08:00", media: [UUID()])
            let change = SyncChange(
                idempotencyKey: "bad", entity: .row, op: .upsert, id: textWithPhoto.id, collection: "journal",
                data: try SyncRules.rowData(textWithPhoto))
            do {
                _ = try await stores.sync.push([change], userId: user)
                Issue.record("A text entry with a photo was pushed")
            } catch let rejection as SyncRejection {
                #expect(rejection.message.contains("mediaIds: A text entry has no photo or recording"))
            }
            let freeForm = SyncChange(
                idempotencyKey: "free", entity: .row, op: .upsert, id: UUID(), collection: "journal", data: .object(["mood": .number(4)]))
            await #expect(throws: SyncRejection.self) { try await stores.sync.push([freeForm], userId: user) }
            #expect(try await stores.journal.count(userId: user) == 1)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aWordWithOtherLettersIsNarrowedByItsASCIIRunsAndDecidedInSwift(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            // "müsli" is narrowed by "sli": the sliced mango passes that and is dropped by the rule; the upper-case
            // MÜSLI only in the raw input is found.
            let sliced = entry("Sliced mango", on: "2026-03-09", at: "16:00")
            let spoken = entry("Breakfast bowl", on: "2026-03-08", at: "08:00", raw: "um MÜSLI with milk", type: .voice)
            let typed = entry("Müsli mit Joghurt", on: "2026-03-07", at: "07:30")
            let old = entry("Bircher müsli", on: "2026-02-01", at: "07:30")
            for value in [sliced, spoken, typed, old] {
                try await stores.journal.save(value, baseVersion: nil, userId: user, today: today)
            }
            func search(_ query: String, limit: Int = 10) async throws -> [String] {
                try await stores.journal.search(userId: user, query: query, limit: limit).map(\.entry.processedDescription)
            }
            #expect(try await search("müsli") == ["Breakfast bowl", "Müsli mit Joghurt", "Bircher müsli"])
            #expect(try await search("müsli", limit: 2) == ["Breakfast bowl", "Müsli mit Joghurt"])
            #expect(try await search("MÜSLI milk") == ["Breakfast bowl"])
            #expect(try await search("sli") == ["Sliced mango", "Breakfast bowl", "Müsli mit Joghurt", "Bircher müsli"])
            // No ASCII run of two: every entry is read and the rule decides.
            #expect(try await search("ü") == ["Breakfast bowl", "Müsli mit Joghurt", "Bircher müsli"])
            #expect(try await search("ñ").isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func aPeriodsInsightsReadFromTheStoreAreThoseOfEveryEntry(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            // Today is 10 March 2026; the year is 11 March 2025 – 10 March 2026.
            let values = [
                entry("Idli sambar", on: "2025-01-14", at: "08:00", category: .breakfast),
                entry("Idli sambar", on: "2025-01-15", at: "08:00", category: .breakfast),
                entry("Upma", on: "2025-01-16", at: "08:30", category: .breakfast),
                entry("Upma and chai", on: "2025-01-17", at: "08:30", category: .breakfast),
                entry("Dosa", on: "2025-03-10", at: "13:00", category: .lunch),
                entry("Dosa", on: "2025-03-11", at: "13:00", category: .lunch),
                entry("Idli sambar", on: "2026-02-20", at: "08:00", category: .breakfast),
                entry("Müsli mit Joghurt", on: "2026-03-03", at: "07:30", type: .photo, category: .breakfast, media: [UUID()]),
                entry("Poha and chai", on: "2026-03-09", at: "08:00", type: .voice, category: .breakfast),
                entry("Dosa", on: "2026-03-09", at: "20:00", category: .dinner),
                entry("Dosa and chai", on: "2026-03-10", at: "08:00"),
                entry("Chai", on: "2026-03-11", at: "07:00", category: .beverage),
            ]
            for value in values { try await stores.journal.save(value, baseVersion: nil, userId: user, today: today) }
            let deleted = entry("Pizza", on: "2026-03-08", at: "20:00")
            try await stores.journal.save(deleted, baseVersion: nil, userId: user, today: today)
            try await stores.journal.delete(userId: user, id: deleted.id, baseVersion: nil)
            try await stores.journal.save(entry("Biryani", on: "2026-03-09", at: "13:00"), baseVersion: nil, userId: other, today: today)

            let history = try await stores.journal.history(userId: user)
            #expect(history.dayCounts.count == 11)
            #expect(history.dayCounts[Fixtures.date("2026-03-09")] == 2)
            #expect(history.dayCounts[Fixtures.date("2026-03-08")] == nil, "the deleted pizza")
            #expect(history.descriptions == [
                "Idli sambar", "Upma", "Upma and chai", "Dosa", "Müsli mit Joghurt", "Poha and chai", "Dosa and chai", "Chai",
            ])

            let every = JournalInsights(entries: try await stores.journal.allEntries(userId: user), today: today)
            let year = try await stores.journal.insights(userId: user, today: today, period: .year)
            // Worked: the year holds 11 March 2025 and the 5 entries of 2026 up to today (not tomorrow's chai), not
            // 10 March 2025; the records are all time (14–17 January 2025: 4 days; idli, sambar, upma, chai, dosa,
            // müsli, mit, joghurt, poha: 9 foods), the streak 9–10 March.
            #expect(year.entries.count == 7, "the year's 6 and tomorrow's chai")
            #expect(year.totalEntries(.year) == 6)
            #expect(year.longestStreak == 4)
            #expect(year.uniqueFoods == 9)
            #expect(year.bestDay == DailyCount(date: Fixtures.date("2026-03-09"), count: 2))
            #expect(year.currentStreak.days == 2)
            #expect(year.range(.allTime).lowerBound == Fixtures.date("2025-01-14"))
            #expect(year.weekOverWeekTrend() == WeekComparison(thisWeek: 3, lastWeek: 1))
            #expect(year.topItems(.year, limit: 2) == [FoodItemFrequency(name: "dosa", count: 3), FoodItemFrequency(name: "chai", count: 2)])

            for period in JournalPeriod.allCases {
                for month in [nil, (year: 2025, month: 1), (year: 2026, month: 2), (year: 2026, month: 3)] as [(year: Int, month: Int)?] {
                    let read = try await stores.journal.insights(userId: user, today: today, period: period, heatmapMonth: month)
                    let label = "\(period) \(month.map { "\($0.year)-\($0.month)" } ?? "this month")"
                    #expect(read.totalEntries(period) == every.totalEntries(period), "\(label)")
                    #expect(read.consistency(period) == every.consistency(period), "\(label)")
                    #expect(read.topItems(period) == every.topItems(period), "\(label)")
                    #expect(read.dailyCounts(period) == every.dailyCounts(period), "\(label)")
                    #expect(read.categoryDistribution(period) == every.categoryDistribution(period), "\(label)")
                    #expect(read.inputTypeBreakdown(period) == every.inputTypeBreakdown(period), "\(label)")
                    #expect(read.mealTiming(period) == every.mealTiming(period), "\(label)")
                    #expect(read.coOccurrence(period) == every.coOccurrence(period), "\(label)")
                    #expect(read.weekOverWeekTrend() == every.weekOverWeekTrend(), "\(label)")
                    #expect(read.currentStreak == every.currentStreak, "\(label)")
                    #expect(read.longestStreak == every.longestStreak && read.bestDay == every.bestDay, "\(label)")
                    #expect(read.uniqueFoods == every.uniqueFoods, "\(label)")
                    let shown = month ?? (today.year, today.month)
                    #expect(read.monthlyHeatmap(year: shown.year, month: shown.month) == every.monthlyHeatmap(year: shown.year, month: shown.month), "\(label)")
                    #expect(JournalWeeklySummary(entries: read.entries, today: today, history: read.history)
                            == JournalWeeklySummary(entries: every.entries, today: today), "\(label)")
                }
            }
            // January 2025's heatmap, read apart from the year: its four days.
            let january = try await stores.journal.insights(userId: user, today: today, period: .week, heatmapMonth: (2025, 1))
            #expect(january.monthlyHeatmap(year: 2025, month: 1).filter { $0.count > 0 }.map(\.date.iso)
                    == ["2025-01-14", "2025-01-15", "2025-01-16", "2025-01-17"])
            #expect(january.entries.count == 5 + 4, "the 14 days' five (tomorrow's chai too) and January's four")
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func searchFindsEveryWordInDescriptionOrRawInputNewestFirst(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let other = try await stores.makeUser()
            let old = entry("Idli and sambar", on: "2026-02-01", at: "08:00")
            let newer = entry("Sambar rice", on: "2026-03-05", at: "13:00", raw: "um SAMBAR rice with papad", type: .voice)
            let newest = entry("Idli, sambar and chutney", on: "2026-03-09", at: "08:00")
            let muesli = entry("Müsli mit Joghurt", on: "2026-03-08", at: "07:30")
            let percent = entry("Milk 1.5% fat", on: "2026-03-07", at: "07:00")
            for value in [old, newer, newest, muesli, percent] {
                try await stores.journal.save(value, baseVersion: nil, userId: user, today: today)
            }
            try await stores.journal.save(entry("Idli sambar", on: "2026-03-09", at: "09:00"), baseVersion: nil, userId: other, today: today)

            func search(_ query: String, limit: Int = 10) async throws -> [String] {
                try await stores.journal.search(userId: user, query: query, limit: limit).map(\.entry.processedDescription)
            }
            #expect(try await search("sambar") == ["Idli, sambar and chutney", "Sambar rice", "Idli and sambar"])
            #expect(try await search("SAMBAR idli") == ["Idli, sambar and chutney", "Idli and sambar"])
            #expect(try await search("papad") == ["Sambar rice"])
            #expect(try await search("sambar", limit: 1) == ["Idli, sambar and chutney"])
            #expect(try await search("MÜSLI") == ["Müsli mit Joghurt"])
            #expect(try await search("müsli joghurt") == ["Müsli mit Joghurt"])
            #expect(try await search("5%") == ["Milk 1.5% fat"])
            #expect(try await search("%").isEmpty == false)
            #expect(try await search("_").isEmpty)
            #expect(try await search("   ").isEmpty)
            #expect(try await search("dosa").isEmpty)
            try await stores.journal.delete(userId: user, id: newest.id, baseVersion: nil)
            #expect(try await search("chutney").isEmpty)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func journalDaysCountTowardTheStreak(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            // Journal entries alone, no meal or weight.
            for date in ["2026-03-06", "2026-03-07", "2026-03-09", "2026-03-10"] {
                try await stores.journal.save(entry("Toast", on: date, at: "08:00"), baseVersion: nil, userId: user, today: today)
            }
            let second = entry("Tea", on: "2026-03-08", at: "16:00")
            try await stores.journal.save(second, baseVersion: nil, userId: user, today: today)
            // 6–10 March: five days in a row.
            var run = try await stores.loggedDays.latestRun(userId: user, through: today)
            #expect(Streak(loggedDays: run, today: today).days == 5)
            // Deleting 8 March's only entry breaks it: 9–10 March.
            try await stores.journal.delete(userId: user, id: second.id, baseVersion: nil)
            run = try await stores.loggedDays.latestRun(userId: user, through: today)
            #expect(Streak(loggedDays: run, today: today).days == 2)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: Fixtures.date("2026-03-05")...today)
                == Set(["2026-03-06", "2026-03-07", "2026-03-09", "2026-03-10"].map(Fixtures.date)))
            // Undo brings the day back; moving an entry to another day moves its count.
            var restored = try await stores.journal.restore(userId: user, id: second.id)
            #expect(Streak(loggedDays: try await stores.loggedDays.latestRun(userId: user, through: today), today: today).days == 5)
            restored.entry.date = Fixtures.date("2026-03-04")
            try await stores.journal.save(restored.entry, baseVersion: restored.version, userId: user, today: today)
            #expect(try await stores.loggedDays.loggedDays(userId: user, in: Fixtures.date("2026-03-01")...today)
                == Set(["2026-03-04", "2026-03-06", "2026-03-07", "2026-03-09", "2026-03-10"].map(Fixtures.date)))
            #expect(Streak(loggedDays: try await stores.loggedDays.latestRun(userId: user, through: today), today: today).days == 2)
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func sampleDataIsAddedOnceAndRemovedAloneAndComesBack(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            // The marker in other letters is the person's own text (SQLite's LIKE would have taken it for a sample).
            let mine = [entry("My own breakfast", on: "2026-03-09", at: "08:00"),
                        entry("Oats", on: "2026-03-10", at: "07:30", raw: "[sample] oats, as I wrote it")]
            for own in mine { try await stores.journal.save(own, baseVersion: nil, userId: user, today: today) }
            #expect(try await stores.journal.hasSampleData(userId: user) == false)
            let expected = JournalSampleData.entries(today: today, now: written)
            #expect(try await stores.journal.addSampleData(userId: user, today: today, now: written) == expected.count)
            #expect(try await stores.journal.hasSampleData(userId: user))
            #expect(try await stores.journal.addSampleData(userId: user, today: today, now: written) == 0)
            #expect(try await stores.journal.count(userId: user) == expected.count + 2)
            let all = try await stores.journal.allEntries(userId: user)
            #expect(Set(all.filter(\.isSample)) == Set(expected))

            #expect(try await stores.journal.removeSampleData(userId: user) == expected.count)
            #expect(try await stores.journal.allEntries(userId: user) == mine)
            #expect(try await stores.journal.hasSampleData(userId: user) == false)
            #expect(try await stores.journal.removeSampleData(userId: user) == 0)
            // Added again after removal: back from the tombstones.
            #expect(try await stores.journal.addSampleData(userId: user, today: today, now: written) == expected.count)
            #expect(try await stores.journal.count(userId: user) == expected.count + 2)
            #expect(try await stores.journal.hasSampleData(userId: user))
        }
    }

    @Test(arguments: StoreBackend.allCases)
    func entriesAreExportedImportedAndDeletedWithTheAccount(backend: StoreBackend) async throws {
        try await backend.withCoachStores(clockStart: written) { stores in
            let user = try await stores.makeUser()
            let photo = UUID()
            let value = entry("Biryani", on: "2026-03-09", at: "13:00", type: .photo, category: .lunch, media: [photo])
            try await stores.journal.save(value, baseVersion: nil, userId: user, today: today)
            let export = try await stores.userData.exportUserData(userId: user)
            let rows = export.rows.filter { $0.collection == "journal" }
            #expect(try rows.map { try SyncRules.decodeRow(JournalEntry.self, $0.data) } == [value])

            let fresh = try await stores.makeUser()
            _ = try await stores.userData.importUserData(export, into: fresh)
            #expect(try await stores.journal.allEntries(userId: fresh) == [value])
            #expect(try await stores.journal.search(userId: fresh, query: "biryani", limit: 5).map(\.entry) == [value])
            #expect(try await stores.loggedDays.latestRun(userId: fresh, through: today) == [Fixtures.date("2026-03-09")])

            #expect(try await stores.userData.deleteAccount(userId: user, loginThrottleKeys: []))
            #expect(try await stores.journal.allEntries(userId: user).isEmpty)
            #expect(try await stores.journal.allEntries(userId: fresh) == [value])
        }
    }
}
