import Foundation
import GRDB
import WDietCore
import WDietStore

/// A row of `profiles`, column for column. The tag lists are JSON arrays of strings; the latest plan change is
/// its previous target inputs as a JSON object and its local day, the earlier ones a JSON array of `PlanChange`.
struct ProfileRecord: UserOwnedRecord {
    static let databaseTableName = "profiles"
    static let displayName = "Profile"

    var id: String
    var userId: String
    var dateOfBirth: String
    var sex: String
    var genderDescription: String?
    var heightCm: Double
    var weightKg: Double
    var targetWeightKg: Double?
    var targetDate: String?
    var goal: String
    var activity: String
    var dietaryPreferences: String
    var allergies: String
    var mealsPerDay: Int
    var timeZone: String
    var eatingWindowStartMinute: Int
    var planStartDate: String
    var deficit: String
    var weightUnit: String
    var heightUnit: String
    var planPreviousInputs: String?
    var planChangedOn: String?
    var planEarlierChanges: String
    var createdAt: String
    var updatedAt: String
    var version: Int64
    var deletedAt: String?

    enum Columns {
        static let userId = Column(CodingKeys.userId)
        static let deletedAt = Column(CodingKeys.deletedAt)
    }

    /// A record for saving; the bookkeeping columns are filled in by `write(_:over:in:now:)`.
    init(_ profile: Profile, planHistory: PlanHistory, id: String, userId: UUID) throws {
        let planChange = planHistory.latest
        self.id = id
        self.userId = AppDatabase.idText(userId)
        dateOfBirth = profile.dateOfBirth.iso
        sex = profile.sex.rawValue
        genderDescription = profile.genderDescription
        heightCm = profile.heightCm
        weightKg = profile.weightKg
        targetWeightKg = profile.targetWeightKg
        targetDate = profile.targetDate?.iso
        goal = profile.goal.rawValue
        activity = profile.activity.rawValue
        dietaryPreferences = try Self.jsonText(profile.dietaryPreferences)
        allergies = try Self.jsonText(profile.allergies)
        mealsPerDay = profile.mealsPerDay
        timeZone = profile.timeZoneIdentifier
        eatingWindowStartMinute = profile.eatingWindow.startMinute
        planStartDate = profile.planStartDate.iso
        deficit = profile.deficit.rawValue
        weightUnit = profile.weightUnit.rawValue
        heightUnit = profile.heightUnit.rawValue
        planPreviousInputs = try planChange.map { try Self.jsonText($0.previous) }
        planChangedOn = planChange?.changedOn.iso
        let earlier = planHistory.earlier
        planEarlierChanges = earlier.isEmpty ? "[]" : try Self.jsonText(earlier)
        createdAt = ""
        updatedAt = ""
        version = 0
        deletedAt = nil
    }

    /// Column by column rather than through `Decodable`: the dashboard and every meal save read the profile.
    init(row: Row) throws {
        id = row["id"]
        userId = row["userId"]
        dateOfBirth = row["dateOfBirth"]
        sex = row["sex"]
        genderDescription = row["genderDescription"]
        heightCm = row["heightCm"]
        weightKg = row["weightKg"]
        targetWeightKg = row["targetWeightKg"]
        targetDate = row["targetDate"]
        goal = row["goal"]
        activity = row["activity"]
        dietaryPreferences = row["dietaryPreferences"]
        allergies = row["allergies"]
        mealsPerDay = row["mealsPerDay"]
        timeZone = row["timeZone"]
        eatingWindowStartMinute = row["eatingWindowStartMinute"]
        planStartDate = row["planStartDate"]
        deficit = row["deficit"]
        weightUnit = row["weightUnit"]
        heightUnit = row["heightUnit"]
        planPreviousInputs = row["planPreviousInputs"]
        planChangedOn = row["planChangedOn"]
        planEarlierChanges = row["planEarlierChanges"]
        createdAt = row["createdAt"]
        updatedAt = row["updatedAt"]
        version = row["version"]
        deletedAt = row["deletedAt"]
    }

    func stored() throws -> StoredProfile {
        guard let sex = Sex(rawValue: sex), let goal = Goal(rawValue: goal), let activity = ActivityLevel(rawValue: activity),
              let eatingWindow = EatingWindow(startMinute: eatingWindowStartMinute),
              let deficit = DeficitSetting(rawValue: deficit),
              let weightUnit = WeightUnit(rawValue: weightUnit), let heightUnit = HeightUnit(rawValue: heightUnit)
        else { throw AppDatabase.unreadable }
        let profile = Profile(
            dateOfBirth: try AppDatabase.localDate(fromText: dateOfBirth), sex: sex, heightCm: heightCm, weightKg: weightKg,
            targetWeightKg: targetWeightKg, targetDate: try targetDate.map(AppDatabase.localDate(fromText:)),
            goal: goal, activity: activity,
            dietaryPreferences: try Self.strings(fromJSON: dietaryPreferences), allergies: try Self.strings(fromJSON: allergies),
            mealsPerDay: mealsPerDay, timeZoneIdentifier: timeZone, eatingWindow: eatingWindow,
            planStartDate: try AppDatabase.localDate(fromText: planStartDate), deficit: deficit,
            weightUnit: weightUnit, heightUnit: heightUnit, genderDescription: genderDescription
        )
        var planChange: PlanChange?
        if let planPreviousInputs, let planChangedOn {
            planChange = PlanChange(
                previous: try Self.decode(Profile.TargetInputs.self, fromJSON: planPreviousInputs),
                changedOn: try AppDatabase.localDate(fromText: planChangedOn)
            )
        }
        let earlier = planEarlierChanges == "[]" ? [] : try Self.decode([PlanChange].self, fromJSON: planEarlierChanges)
        return StoredProfile(
            profile: profile, planChange: planChange, earlierPlanChanges: earlier, userId: try AppDatabase.id(fromText: userId), version: version,
            createdAt: try AppDatabase.instant(fromStoredText: createdAt),
            updatedAt: try AppDatabase.instant(fromStoredText: updatedAt)
        )
    }

    /// Keys sorted, so that the same value is always the same text and an identical save is no change.
    static func jsonText(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func strings(fromJSON text: String) throws -> [String] {
        // Most profiles have no tags; a JSONDecoder for "[]" would cost more than the rest of the row.
        if text == "[]" { return [] }
        return try decode([String].self, fromJSON: text)
    }

    static func decode<T: Decodable>(_ type: T.Type, fromJSON text: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw AppDatabase.unreadable
        }
    }
}
