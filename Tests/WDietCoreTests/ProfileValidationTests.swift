import Testing
import WDietCore
import WDietTestSupport

@Suite("Profile validation: 001 §5 messages verbatim")
struct ProfileValidationTests {
    static let today = Fixtures.date("2026-11-22")

    static var valid: ProfileDraft {
        ProfileDraft(
            dateOfBirth: Fixtures.date("1990-05-01"), sex: .female, height: .value(170), currentWeight: .value(72),
            targetWeight: .value(65), goal: .lose, targetDate: Fixtures.date("2027-06-01"), activity: .moderate,
            dietaryPreferences: ["Vegetarian"], allergies: ["Peanuts"], mealsPerDay: 3, timeZoneIdentifier: "Europe/Berlin"
        )
    }

    @Test func validDraftHasNoErrors() {
        #expect(ProfileValidator.errors(in: Self.valid, today: Self.today).isEmpty)
    }

    typealias Edit = @Sendable (inout ProfileDraft) -> Void

    static let cases: [(String, ProfileField, String, Edit)] = [
        ("age 12", .dateOfBirth, "You must be at least 13 years old to use w-diet", { $0.dateOfBirth = Fixtures.date("2013-11-23") }),
        ("age 121", .dateOfBirth, "Please enter a valid date of birth", { $0.dateOfBirth = Fixtures.date("1905-11-22") }),
        ("born tomorrow", .dateOfBirth, "Date of birth cannot be in the future", { $0.dateOfBirth = Fixtures.date("2026-11-23") }),
        ("no gender", .gender, "Please select your gender", { $0.sex = nil }),
        ("49.9 cm", .height, "Height must be at least 50 cm (1'8\")", { $0.height = .value(49.9) }),
        ("300.1 cm", .height, "Height must be less than 300 cm (9'10\")", { $0.height = .value(300.1) }),
        ("height abc", .height, "Please enter a valid number", { $0.height = NumericInput(text: "abc") }),
        ("19.9 kg", .currentWeight, "Weight must be at least 20 kg (44 lbs)", { $0.currentWeight = .value(19.9) }),
        ("500.1 kg", .currentWeight, "Weight must be less than 500 kg (1102 lbs)", { $0.currentWeight = .value(500.1) }),
        ("weight 7o", .currentWeight, "Please enter a valid number", { $0.currentWeight = NumericInput(text: "7o") }),
        ("target 19.9 kg", .targetWeight, "Target weight must be at least 20 kg (44 lbs)", { $0.targetWeight = .value(19.9) }),
        ("target 500.1 kg", .targetWeight, "Target weight must be less than 500 kg (1102 lbs)", { $0.targetWeight = .value(500.1) }),
        ("target x", .targetWeight, "Please enter a valid number", { $0.targetWeight = .invalid }),
        ("no goal", .primaryGoal, "Please select your primary goal", { $0.goal = nil }),
        ("target today", .targetDate, "Target date must be in the future", { $0.targetDate = Fixtures.date("2026-11-22") }),
        ("target past", .targetDate, "Target date must be in the future", { $0.targetDate = Fixtures.date("2025-01-01") }),
        ("target 2y+1d", .targetDate, "Target date must be within 2 years", { $0.targetDate = Fixtures.date("2028-11-23") }),
        ("no activity", .activityLevel, "Please select your activity level", { $0.activity = nil }),
        ("11 preferences", .dietaryPreferences, "Maximum 10 dietary preferences allowed", { $0.dietaryPreferences = (1...11).map { "Pref \($0)" } }),
        ("21 allergies", .allergies, "Maximum 20 allergies allowed", { $0.allergies = (1...21).map { "Allergy \($0)" } }),
        ("0 meals", .mealsPerDay, "At least 1 meal per day required", { $0.mealsPerDay = 0 }),
        ("11 meals", .mealsPerDay, "Maximum 10 meals per day", { $0.mealsPerDay = 11 }),
        ("31-char tag", .allergies, "Each item must be 30 characters or fewer", { $0.allergies = [String(repeating: "x", count: 31)] }),
        ("bad zone", .timeZone, "Please select a valid time zone", { $0.timeZoneIdentifier = "Mars/Olympus" }),
        ("21-character description", .genderDescription, "Gender description must be 20 characters or fewer",
         { $0.sex = .other; $0.genderDescription = String(repeating: "x", count: 21) }),
        ("description for Female", .genderDescription, "A gender description can only be added for Other",
         { $0.genderDescription = "Non-binary" }),
    ]

    @Test("each rule gives exactly its message", arguments: cases)
    func eachRule(name: String, field: ProfileField, message: String, edit: Edit) {
        var draft = Self.valid
        edit(&draft)
        #expect(ProfileValidator.errors(in: draft, today: Self.today) == [FieldError(field, message)], "\(name)")
    }

    /// The product is w-diet (PRODUCT.md); 001 §5's wording named it GTSD.
    @Test("the age rule names w-diet, in English and German")
    func ageRuleNamesTheProduct() {
        var draft = Self.valid
        draft.dateOfBirth = Fixtures.date("2013-11-23")
        let english = ProfileValidator.errors(in: draft, today: Self.today).map(\.message)
        let german = Strings.$current.withValue(.german) { ProfileValidator.errors(in: draft, today: Self.today).map(\.message) }
        #expect(english == ["You must be at least 13 years old to use w-diet"])
        #expect(german == ["Du musst mindestens 13 Jahre alt sein, um w-diet zu nutzen"])
    }

    static let validBounds: [(String, Edit)] = [
        ("age exactly 13", { $0.dateOfBirth = Fixtures.date("2013-11-22") }),
        ("age exactly 120", { $0.dateOfBirth = Fixtures.date("1906-11-22") }),
        ("50 cm", { $0.height = .value(50) }), ("300 cm", { $0.height = .value(300) }),
        ("20 kg", { $0.currentWeight = .value(20) }), ("500 kg", { $0.currentWeight = .value(500) }),
        ("target tomorrow", { $0.targetDate = Fixtures.date("2026-11-23") }),
        ("target in exactly 2 years", { $0.targetDate = Fixtures.date("2028-11-22") }),
        ("no target weight or date", { $0.targetWeight = .missing; $0.targetDate = nil }),
        ("10 preferences, duplicates ignored", { $0.dietaryPreferences = (1...10).map { "P\($0)" } + ["p1", " P2 "] }),
        ("1 meal", { $0.mealsPerDay = 1 }), ("10 meals", { $0.mealsPerDay = 10 }),
        ("decimal comma", { $0.currentWeight = NumericInput(text: "82,5") }),
        ("20-character description", { $0.sex = .other; $0.genderDescription = String(repeating: "x", count: 20) }),
        // Counted after trimming, as a person sees the characters: 20 with a five-code-point flag.
        ("20 characters with spaces around", { $0.sex = .other; $0.genderDescription = "  " + String(repeating: "x", count: 20) + "\n" }),
        ("20 characters with an emoji flag", { $0.sex = .other; $0.genderDescription = String(repeating: "x", count: 19) + "🏳️‍⚧️" }),
        ("only spaces is none, even for Female", { $0.genderDescription = "   " }),
    ]

    @Test("the bounds themselves are valid", arguments: validBounds)
    func boundsAreValid(name: String, edit: Edit) {
        var draft = Self.valid
        edit(&draft)
        #expect(ProfileValidator.errors(in: draft, today: Self.today).isEmpty, "\(name)")
    }

    @Test("several errors come back in form order")
    func formOrder() {
        var draft = Self.valid
        draft.mealsPerDay = 0
        draft.height = .missing
        draft.sex = nil
        #expect(ProfileValidator.errors(in: draft, today: Self.today).map(\.field) == [.gender, .height, .mealsPerDay])
    }

    @Test("tags are trimmed and de-duplicated regardless of case")
    func normalizedTags() {
        #expect(ProfileValidator.normalizedTags([" Vegan", "vegan", "", "Keto ", "KETO", "Paleo"]) == ["Vegan", "Keto", "Paleo"])
    }

    @Test("a leap-day today: two years later is 28 February")
    func leapDayLimit() {
        #expect(ProfileValidator.latestTargetDate(today: Fixtures.date("2028-02-29")) == Fixtures.date("2030-02-28"))
    }
}

@Suite("Profile validation: the gender description of 001 §3")
struct GenderDescriptionTests {
    @Test func trimmedAndEmptyIsNone() {
        #expect(ProfileValidator.normalizedGenderDescription("  Two-spirit \n") == "Two-spirit")
        #expect(ProfileValidator.normalizedGenderDescription(" \t ") == nil)
        #expect(ProfileValidator.normalizedGenderDescription("") == nil)
        #expect(ProfileValidator.normalizedGenderDescription(nil) == nil)
    }

    @Test func theDescriptionIsNeverATargetInput() {
        var described = Fixtures.profile(sex: .other)
        described.genderDescription = "Genderfluid"
        #expect(described.targetInputs == Fixtures.profile(sex: .other).targetInputs)
        // Other's own rule (PRODUCT.md: −78, the mean of male +5 and female −161): 30 years, 180 cm, 80 kg on the
        // plan's first day gives 800 + 1,125 − 150 − 78 = 1,697 kcal, with or without the words.
        let day = Fixtures.date("2026-01-01")
        #expect(Targets.compute(profile: described, latestWeightKg: nil, on: day).bmr == 1_697)
    }
}
