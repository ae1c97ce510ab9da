import Foundation
import Testing
import WDietCore

/// 002's `SampleDataServiceTests` as far as they concern the data (the store's add and remove are in
/// `JournalStoreConformanceTests`): 120 days, marked, varied, deterministic, nothing in the future.
@Suite struct JournalSampleDataTests {
    let today = LocalDate(year: 2026, month: 3, day: 10)!
    let now = Date(timeIntervalSince1970: 1_773_133_200)  // 2026-03-10T09:00:00Z

    @Test func oneHundredTwentyDaysBeforeTodayEveryEntryMarked() {
        let entries = JournalSampleData.entries(today: today, now: now)
        #expect(entries.count >= 70)
        #expect(entries.allSatisfy { $0.isSample })
        #expect(entries.allSatisfy { $0.rawInput.hasPrefix("[SAMPLE] ") })
        #expect(entries.allSatisfy { $0.date < today && $0.date >= today.adding(days: -120) })
        #expect(entries.allSatisfy { $0.createdAt <= now && $0.updatedAt == nil })
        #expect(entries.allSatisfy { (try? $0.validate(today: today)) != nil })
        // About 85 % of the days have 1–3 entries.
        let days = Dictionary(grouping: entries, by: \.date)
        #expect((90...115).contains(days.count))
        #expect(days.values.allSatisfy { (1...3).contains($0.count) })
        // Oldest first, by time within a day.
        #expect(entries == entries.sorted { ($0.date, $0.time) < ($1.date, $1.time) })
    }

    @Test func variedLikeARealDiary() {
        let entries = JournalSampleData.entries(today: today, now: now)
        #expect(Set(entries.compactMap(\.category)) == Set(JournalCategory.allCases))
        #expect(Set(entries.map(\.inputType)) == Set(JournalInputType.allCases))
        #expect(Set(entries.map(\.processedDescription)).count >= 35)
        let text = entries.map { $0.processedDescription.lowercased() }.joined(separator: " ")
        for dish in ["idli", "dosa", "biryani", "lassi", "samosa", "kheer", "sambar"] {
            #expect(text.contains(dish), "\(dish) is missing")
        }
        // Voice entries keep the transcript as it came; the description is what was saved.
        let voice = entries.first { $0.inputType == .voice }!
        #expect(voice.rawInput == "[SAMPLE] um I had " + voice.processedDescription.lowercased())
        // A photo entry has no media (002: mediaURL nil), so it is valid without the media store.
        #expect(entries.filter { $0.inputType == .photo }.allSatisfy { $0.mediaIds.isEmpty })
    }

    @Test func deterministicWithFixedIds() {
        let first = JournalSampleData.entries(today: today, now: now)
        #expect(first == JournalSampleData.entries(today: today, now: now))
        #expect(first.map(\.id) == first.indices.map(JournalSampleData.sampleId))
        #expect(JournalSampleData.sampleId(0).uuidString == "5A3E0000-0000-4000-8000-000000000000")
        #expect(JournalSampleData.sampleId(255).uuidString == "5A3E0000-0000-4000-8000-0000000000FF")
        // Another day moves the dates with it, and keeps the food.
        let tomorrow = JournalSampleData.entries(today: today.adding(days: 1), now: now.addingTimeInterval(86_400))
        #expect(tomorrow.map(\.processedDescription) == first.map(\.processedDescription))
        #expect(tomorrow.map(\.date) == first.map { $0.date.adding(days: 1) })
    }
}
