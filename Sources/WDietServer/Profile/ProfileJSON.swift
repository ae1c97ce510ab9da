import Foundation
import Hummingbird
import WDietCore
import WDietStore

/// The profile as the API returns it: the members `PUT /profile` takes, plus the bookkeeping a client needs.
struct ProfileJSON: ResponseEncodable, Sendable {
    struct PendingChange: Encodable, Sendable {
        /// The first day of the new targets (the user's next local day).
        var effectiveDate: LocalDate
        /// "Your plan will be updated tomorrow at midnight (Mon 2 Mar)".
        var message: String
    }

    var dateOfBirth: LocalDate
    var sex: Sex
    /// Only with sex "other"; left out when there is none.
    var genderDescription: String?
    var heightCm: Double
    var weightKg: Double
    var targetWeightKg: Double?
    var targetDate: LocalDate?
    var goal: Goal
    var activity: ActivityLevel
    var dietaryPreferences: [String]
    var allergies: [String]
    var mealsPerDay: Int
    var timeZone: String
    var eatingWindowStart: String
    var eatingWindowEnd: String
    var deficit: DeficitSetting
    var weightUnit: WeightUnit
    var heightUnit: HeightUnit
    var planStartDate: LocalDate
    /// Pass back as `baseVersion` to detect edits made elsewhere in between.
    var version: Int64
    var updatedAt: Date
    /// Set while a saved change of the targets waits for midnight ("changes apply tomorrow").
    var pendingChange: PendingChange?

    /// `current`: the weight log's side (PRODUCT.md "current weight"): `weightKg` is then the latest logged weight,
    /// and a weight logged today that waits for midnight counts as a pending change. Without it, the profile's own.
    init(_ stored: StoredProfile, now: Date, current: CurrentWeight? = nil) {
        let p = stored.profile
        dateOfBirth = p.dateOfBirth
        sex = p.sex
        genderDescription = p.genderDescription
        heightCm = p.heightCm
        weightKg = current?.shown(stored) ?? p.weightKg
        targetWeightKg = p.targetWeightKg
        targetDate = p.targetDate
        goal = p.goal
        activity = p.activity
        dietaryPreferences = p.dietaryPreferences
        allergies = p.allergies
        mealsPerDay = p.mealsPerDay
        timeZone = p.timeZoneIdentifier
        eatingWindowStart = EatingWindow.clock(p.eatingWindow.startMinute)
        eatingWindowEnd = EatingWindow.clock(p.eatingWindow.endMinute)
        deficit = p.deficit
        weightUnit = p.weightUnit
        heightUnit = p.heightUnit
        planStartDate = p.planStartDate
        version = stored.version
        updatedAt = stored.updatedAt
        let today = LocalDate(now, in: p.timeZone)
        let effectiveDate = current?.planUpdatesOn(stored, today: today) ?? stored.pendingChange(on: today)?.effectiveDate
        pendingChange = effectiveDate.map { PendingChange(effectiveDate: $0, message: PlanChange.notice(effectiveDate: $0, today: today)) }
    }
}

/// 409 for a profile edited against a stale version: the error shape plus both copies, so the client can offer
/// "Keep Local" (send `local` again with the server's `version` as `baseVersion`) or "Use Server" (001 §12.5):
/// `current` is the server's copy, `local` the body as it would have been saved (its `version` is the stale
/// `baseVersion` it was edited from), and `differences` the members where they disagree. The server keeps only the
/// latest copy, so the common base is the client's own.
struct ProfileConflictJSON: Encodable {
    struct Detail: Encodable {
        var code = "conflict"
        var message: String
        var current: ProfileJSON
        var local: ProfileJSON
        var baseVersion: Int64?
        var differences: [String]
    }
    var error: Detail

    /// The members a person edits, in the form's order: what `differences` compares.
    static let editableMembers = [
        "dateOfBirth", "sex", "genderDescription", "heightCm", "weightKg", "goal", "targetWeightKg", "targetDate", "activity",
        "dietaryPreferences", "allergies", "mealsPerDay", "timeZone", "eatingWindowStart", "deficit", "weightUnit",
        "heightUnit", "planStartDate",
    ]

    init(
        message: String, local: Profile, baseVersion: Int64?, server: StoredProfile, userId: UUID, now: Date,
        currentWeight: CurrentWeight? = nil
    ) throws {
        let current = ProfileJSON(server, now: now, current: currentWeight)
        let localCopy = ProfileJSON(
            StoredProfile(profile: local, userId: userId, version: baseVersion ?? 0, createdAt: server.createdAt, updatedAt: now),
            now: now
        )
        let serverMembers = try Self.members(of: current)
        let localMembers = try Self.members(of: localCopy)
        let differences = Self.editableMembers.filter { serverMembers[$0] != localMembers[$0] }
        error = Detail(
            message: message, current: current, local: localCopy, baseVersion: baseVersion, differences: differences
        )
    }

    /// Each member's JSON text, for comparing two copies member by member.
    static func members(of profile: ProfileJSON) throws -> [String: String] {
        let data = try APICoding.encoder.encode(profile)
        guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        var result: [String: String] = [:]
        for (key, value) in object {
            let text = try JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys])
            result[key] = String(decoding: text, as: UTF8.self)
        }
        return result
    }

    func response() throws -> Response {
        let data = try APICoding.encoder.encode(self)
        return Response(
            status: .conflict, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
