import Testing
@testable import WDietCore

/// The catalog itself: complete in every language, the same placeholders and plural forms in each, and the
/// languages' number, date and plural rules pinned with worked examples.
@Suite struct StringCatalogTests {
    let catalog = StringCatalog.shared

    @Test func everyFileReads() {
        #expect(catalog.problems == [])
        #expect(catalog.keys(of: .english).count > 50)
    }

    @Test(arguments: Language.allCases)
    func everyKeyExistsInEveryLanguage(_ language: Language) {
        let english = catalog.keys(of: .english)
        let other = catalog.keys(of: language)
        #expect(english.subtracting(other).sorted() == [], "missing in \(language.rawValue)")
        #expect(other.subtracting(english).sorted() == [], "only in \(language.rawValue)")
    }

    static let dateParts: Set<String> = ["day", "dd", "mm", "year", "month", "monthLong", "weekday", "weekdayLong"]

    @Test func placeholdersAndPluralFormsMatchAcrossLanguages() {
        for key in catalog.keys(of: .english).sorted() {
            let english = catalog.placeholders(of: key, in: .english)
            for language in Language.allCases where language != .english {
                if key.hasPrefix("dates.") {
                    // A date pattern picks its own parts ("25.11.2026" has no month name).
                    #expect(catalog.placeholders(of: key, in: language).isSubset(of: Self.dateParts), "\(key) in \(language.rawValue)")
                } else {
                    #expect(catalog.placeholders(of: key, in: language) == english, "\(key) in \(language.rawValue)")
                }
                #expect(catalog.pluralForms(of: key, in: language) == catalog.pluralForms(of: key, in: .english), "\(key)")
            }
            let forms = catalog.pluralForms(of: key, in: .english)
            if !forms.isEmpty { #expect(forms == [.one, .other], "\(key): English and German need one and other") }
        }
    }

    /// Keys address Mustache paths (`{{t.file.key}}`) and JavaScript lookups alike, so they are plain identifiers.
    @Test func keysArePlainIdentifiers() {
        for key in catalog.keys(of: .english) {
            let parts = key.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber } }, "\(key)")
        }
    }

    @Test func numbersAsEachLanguageWritesThem() {
        #expect(Strings.english.number(1234) == "1,234")
        #expect(Strings.german.number(1234) == "1.234")
        #expect(Strings.german.number(1_234_567) == "1.234.567")
        #expect(Strings.english.number(999) == "999")
        #expect(Strings.english.number(-1250) == "-1,250")
        #expect(Strings.english.number(82.46, fractionDigits: 1) == "82.5")
        #expect(Strings.german.number(82.46, fractionDigits: 1) == "82,5")
        #expect(Strings.german.number(1250.4) == "1.250")
        #expect(Strings.german.number(75.0, fractionDigits: 1, trimmingZeros: true) == "75")
        #expect(Strings.german.number(75.04, fractionDigits: 1) == "75,0")
        #expect(Strings.english.number(0.25, fractionDigits: 1) == "0.3")
        #expect(Strings.english.number(-2.5, fractionDigits: 0) == "-3")
    }

    @Test func datesAsEachLanguageWritesThem() throws {
        let date = try #require(LocalDate(iso: "2026-11-25")) // a Wednesday
        #expect(Strings.german.date(date) == "25.11.2026")
        #expect(Strings.english.date(date) == "25 Nov 2026")
        #expect(Strings.english.date(date, .weekdayDayMonth) == "Wed 25 Nov")
        #expect(Strings.german.date(date, .weekdayDayMonth) == "Mi., 25. Nov.")
        #expect(Strings.german.date(try #require(LocalDate(iso: "2027-03-05")), .full) == "05.03.2027")
        #expect(Strings.german.date(try #require(LocalDate(iso: "2027-03-05")), .long) == "Freitag, 5. März")
        #expect(Strings.english.date(try #require(LocalDate(iso: "2027-03-05")), .long) == "Friday, 5 March")
    }

    @Test func pluralFormsFollowTheCount() {
        #expect(Strings.german("coach.streak", count: 1) == "1 Tag in Folge")
        #expect(Strings.german("coach.streak", count: 0) == "0 Tage in Folge")
        #expect(Strings.german("coach.streak", count: 1200) == "1.200 Tage in Folge")
        #expect(Strings.english("coach.streak", count: 3) == "3 day streak")
    }

    @Test func placeholdersAreFilledAndUnknownOnesKept() {
        #expect(Strings.fill("Day {day} of {length}", ["day": "3", "length": "14"]) == "Day 3 of 14")
        #expect(Strings.fill("{a}{b}", ["a": "x"]) == "x{b}")
        #expect(Strings.fill("no brace", ["a": "x"]) == "no brace")
        #expect(Strings.fill("open { only", ["a": "x"]) == "open { only")
        #expect(Strings.english("no.suchKey") == "no.suchKey")
    }

    /// Validation deep in the core speaks the language of the task it runs in.
    @Test func messagesFollowTheCurrentLanguage() async throws {
        let today = try #require(LocalDate(iso: "2026-11-25"))
        let draft = ProfileDraft(dateOfBirth: LocalDate(iso: "1990-01-01"), sex: nil, height: .value(20), currentWeight: .value(80))
        let english = ProfileValidator.errors(in: draft, today: today).map(\.message)
        let german = Strings.$current.withValue(.german) { ProfileValidator.errors(in: draft, today: today).map(\.message) }
        #expect(english.contains("Please select your gender"))
        #expect(english.contains("Height must be at least 50 cm (1'8\")"))
        #expect(german.contains("Bitte wähle dein Geschlecht"))
        #expect(german.contains("Die Größe muss mindestens 50 cm betragen"))
        #expect(german.count == english.count)
        #expect(Strings.$current.withValue(.german) { Units.format(kg: 82.46, in: .kg) } == "82,5 kg")
        #expect(Units.format(kg: 82.46, in: .kg) == "82.5 kg")
    }
}

@Suite struct LanguageNegotiationTests {
    @Test(arguments: [
        ("de-DE,de;q=0.9,en;q=0.8", Language.german),
        ("en-US,en;q=0.9", .english),
        ("fr-FR,fr;q=0.9,de;q=0.5,en;q=0.4", .german),
        ("en;q=0.5, de;q=0.8", .german),
        ("de;q=0, en", .english),
        ("DE-at", .german),
        ("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5", .english),
    ])
    func picksTheBrowsersFavouriteOfOurs(_ header: String, _ expected: Language) {
        #expect(Language.preferred(acceptLanguage: header) == expected)
    }

    @Test(arguments: ["", "fr", "*", "de;q=0", "xx-YY;q=1"])
    func noneOfOursIsNil(_ header: String) {
        #expect(Language.preferred(acceptLanguage: header) == nil)
    }

    @Test func equalQualitiesKeepTheOrderWritten() {
        #expect(Language.preferred(acceptLanguage: "de, en") == .german)
        #expect(Language.preferred(acceptLanguage: "en, de") == .english)
    }
}
