import Foundation
import GRDB
import WDietCore
import WDietStore

/// A row of `profiles`, column for column. The tag lists are JSON arrays of strings.
struct ProfileRecord: UserOwnedRecord {
    static let databaseTableName = "profiles"
    static let displayName = "Profile"

    var id: String
    var userId: String
    var dateOfBirth: String
    var sex: String
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
    var createdAt: String
    var updatedAt: String
    var version: Int64
    var deletedAt: String?

    enum Columns {
        static let userId = Column(CodingKeys.userId)
        static let deletedAt = Column(CodingKeys.deletedAt)
    }

    /// A record for saving; the bookkeeping columns are filled in by `write(_:over:in:now:)`.
    init(_ profile: Profile, id: String, userId: UUID) throws {
        self.id = id
        self.userId = AppDatabase.idText(userId)
        dateOfBirth = profile.dateOfBirth.iso
        sex = profile.sex.rawValue
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
        createdAt = ""
        updatedAt = ""
        version = 0
        deletedAt = nil
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
            weightUnit: weightUnit, heightUnit: heightUnit
        )
        return StoredProfile(
            profile: profile, userId: try AppDatabase.id(fromText: userId), version: version,
            createdAt: try AppDatabase.instant(fromStoredText: createdAt),
            updatedAt: try AppDatabase.instant(fromStoredText: updatedAt)
        )
    }

    static func jsonText(_ strings: [String]) throws -> String {
        String(decoding: try JSONEncoder().encode(strings), as: UTF8.self)
    }

    static func strings(fromJSON text: String) throws -> [String] {
        do {
            return try JSONDecoder().decode([String].self, from: Data(text.utf8))
        } catch {
            throw AppDatabase.unreadable
        }
    }
}
