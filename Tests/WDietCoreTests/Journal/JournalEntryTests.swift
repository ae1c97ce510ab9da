import Foundation
import Testing
import WDietCore
import WDietTestSupport

/// `JournalEntry` (issue 18 item 2): its JSON as a `journal` sync row carries it, 002's `image` read as `photo`,
/// the local day and time, the sample marker, and the rules with the catalog's messages.
@Suite("Journal entry")
struct JournalEntryTests {
    static let id = UUID(uuidString: "E5F6A7B8-4444-4D5E-8F6A-7B8C9D0E1F2A")!
    static let media = UUID(uuidString: "0A1B2C3D-5555-4E6F-8A7B-9C0D1E2F3A4B")!

    static func entry(
        _ description: String = "Two idlis and sambar", type: JournalInputType = .voice, raw: String = "um two idlis and sambar",
        media: [UUID] = [media], date: String = "2026-03-01", updatedAt: Date? = nil
    ) -> JournalEntry {
        JournalEntry(
            id: id, date: Fixtures.date(date), time: JournalTime(hour: 8, minute: 15)!, inputType: type, rawInput: raw,
            processedDescription: description, category: .breakfast, mediaIds: media,
            createdAt: Fixtures.utc("2026-03-01T07:16:02Z"), updatedAt: updatedAt)
    }

    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }

    @Test func encodesEveryMemberInTheRowShape() throws {
        let json = String(decoding: try Self.encoder.encode(Self.entry()), as: UTF8.self)
        #expect(json == """
            {"category":"breakfast","createdAt":"2026-03-01T07:16:02Z","date":"2026-03-01",\
            "id":"E5F6A7B8-4444-4D5E-8F6A-7B8C9D0E1F2A","inputType":"voice","mediaIds":["0A1B2C3D-5555-4E6F-8A7B-9C0D1E2F3A4B"],\
            "processedDescription":"Two idlis and sambar","rawInput":"um two idlis and sambar","time":"08:15","updatedAt":null}
            """)
    }

    @Test func roundTrips() throws {
        let entry = Self.entry(updatedAt: Fixtures.utc("2026-03-02T10:00:00Z"))
        let back = try Self.decoder.decode(JournalEntry.self, from: Self.encoder.encode(entry))
        #expect(back == entry)
        #expect(back.isEdited)
        #expect(!Self.entry().isEdited)
    }

    @Test func readsAbsentOptionalMembersAnd002sImage() throws {
        let json = """
            {"id":"E5F6A7B8-4444-4D5E-8F6A-7B8C9D0E1F2A","date":"2026-03-01","time":"23:59","inputType":"image",\
            "processedDescription":"Pizza","createdAt":"2026-03-01T22:59:00Z"}
            """
        let entry = try Self.decoder.decode(JournalEntry.self, from: Data(json.utf8))
        #expect(entry.inputType == .photo)
        #expect(entry.rawInput == "")
        #expect(entry.category == nil)
        #expect(entry.mediaIds == [])
        #expect(entry.updatedAt == nil)
        #expect(entry.time.hour == 23 && entry.time.minute == 59)
    }

    @Test("refuses a bad time, day, type or category", arguments: [
        #""time":"24:00""#, #""time":"8:15""#, #""date":"2026-02-30""#, #""inputType":"video""#, #""category":"brunch""#,
    ])
    func refusesBadValues(_ member: String) {
        let base = [#""id":"E5F6A7B8-4444-4D5E-8F6A-7B8C9D0E1F2A""#, #""date":"2026-03-01""#, #""time":"08:15""#,
                    #""inputType":"text""#, #""processedDescription":"Pizza""#, #""createdAt":"2026-03-01T07:00:00Z""#]
        let name = member.split(separator: ":")[0]
        let members = base.filter { !$0.hasPrefix(name + ":") } + [member]
        let json = "{" + members.joined(separator: ",") + "}"
        #expect(throws: DecodingError.self) { try Self.decoder.decode(JournalEntry.self, from: Data(json.utf8)) }
    }

    @Test func timeParsesAndPrints() {
        #expect(JournalTime("07:05")?.minuteOfDay == 425)
        #expect(JournalTime("07:05")?.description == "07:05")
        #expect(JournalTime(hour: 0, minute: 0)?.description == "00:00")
        #expect(JournalTime("7:05") == nil)
        #expect(JournalTime("12:60") == nil)
        #expect(JournalTime(hour: 24, minute: 0) == nil)
    }

    @Test func localDayAndTimeOfAnInstantAndBack() {
        // 2026-03-01T23:30Z is 00:30 on 2 March in Berlin (UTC+1) and 18:30 on 1 March in New York (UTC-5).
        let instant = Fixtures.utc("2026-03-01T23:30:00Z")
        #expect(JournalTime(instant, in: Fixtures.zone("Europe/Berlin")).description == "00:30")
        #expect(JournalTime(instant, in: Fixtures.zone("America/New_York")).description == "18:30")
        let entry = JournalEntry(
            date: Fixtures.date("2026-03-02"), time: JournalTime("00:30")!, inputType: .text, rawInput: "x",
            processedDescription: "x", createdAt: instant)
        #expect(entry.eatenAt(in: Fixtures.zone("Europe/Berlin")) == instant)
    }

    @Test func sampleMarker() {
        #expect(Self.entry(raw: "[SAMPLE] Masala dosa").isSample)
        #expect(!Self.entry(raw: "masala dosa [SAMPLE]").isSample)
        #expect(!Self.entry(raw: "").isSample)
    }

    @Test func duplicateIsANewUneditedEntryOnTheNewDay() {
        let original = Self.entry(updatedAt: Fixtures.utc("2026-03-02T10:00:00Z"))
        let now = Fixtures.utc("2026-03-10T12:00:00Z")
        let copy = original.duplicated(date: Fixtures.date("2026-03-10"), time: JournalTime("12:00")!, now: now)
        #expect(copy.id != original.id)
        #expect(copy.date == Fixtures.date("2026-03-10"))
        #expect(copy.processedDescription == original.processedDescription && copy.category == .breakfast)
        #expect(copy.createdAt == now && copy.updatedAt == nil)
    }

    @Test func aValidEntryPasses() throws {
        try Self.entry().validate(today: Fixtures.date("2026-03-01"))
        try Self.entry(String(repeating: "a", count: 2_000), type: .text, media: []).validate()
        try Self.entry(type: .photo, media: [UUID(), UUID(), UUID(), UUID()]).validate()
    }

    static func errors(_ entry: JournalEntry, today: String? = nil) -> [String: String] {
        do {
            try entry.validate(today: today.map(Fixtures.date))
            return [:]
        } catch {
            return error.errors
        }
    }

    @Test func ruleMessagesFromTheCatalog() {
        #expect(Self.errors(Self.entry("  \n ")) == ["processedDescription": "Describe what you ate in 1 to 2,000 characters."])
        #expect(Self.errors(Self.entry(String(repeating: "a", count: 2_001)))["processedDescription"] != nil)
        #expect(Self.errors(Self.entry(raw: String(repeating: "a", count: 10_001))) == [
            "rawInput": "The original input can be at most 10,000 characters long."])
        #expect(Self.errors(Self.entry(type: .photo, media: [UUID(), UUID(), UUID(), UUID(), UUID()])) == [
            "mediaIds": "An entry can have at most 4 photos or recordings."])
        #expect(Self.errors(Self.entry(media: [Self.media, Self.media])) == [
            "mediaIds": "The same photo or recording is attached twice."])
        #expect(Self.errors(Self.entry(type: .text))["mediaIds"] != nil)
        #expect(Self.errors(Self.entry(date: "2026-03-03"), today: "2026-03-01") == ["date": "Choose a day between 1900 and today."])
        #expect(Self.errors(Self.entry(date: "2026-03-02"), today: "2026-03-01") == [:])  // a zone ahead
        #expect(Self.errors(Self.entry(date: "1899-12-31"))["date"] != nil)
        #expect(Self.errors(Self.entry(updatedAt: Fixtures.utc("2026-03-01T07:00:00Z")))["updatedAt"] != nil)
    }

    @Test func germanMessages() {
        Strings.$current.withValue(.german) {
            #expect(Self.errors(Self.entry(""))["processedDescription"] == "Beschreib in 1 bis 2.000 Zeichen, was du gegessen hast.")
            #expect(JournalCategory.beverage.label == "Getränk")
            #expect(JournalInputType.voice.label == "Sprache")
        }
        #expect(JournalCategory.breakfast.label == "Breakfast")
        #expect(JournalInputType.photo.label == "Photo")
    }
}
