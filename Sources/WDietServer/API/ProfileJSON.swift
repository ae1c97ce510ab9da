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

    init(_ stored: StoredProfile, now: Date) {
        let p = stored.profile
        dateOfBirth = p.dateOfBirth
        sex = p.sex
        heightCm = p.heightCm
        weightKg = p.weightKg
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
        pendingChange = stored.pendingChange(on: today).flatMap { change in
            change.notice(today: today).map { PendingChange(effectiveDate: change.effectiveDate, message: $0) }
        }
    }
}

/// 409 for a profile edited against a stale version: the error shape plus the server's copy under `current`,
/// so the client can offer "keep mine" (send again without `baseVersion`) or "use the server's".
struct ProfileConflictJSON: Encodable {
    struct Detail: Encodable {
        var code = "conflict"
        var message: String
        var current: ProfileJSON
    }
    var error: Detail

    func response() throws -> Response {
        let data = try APICoding.encoder.encode(self)
        return Response(
            status: .conflict, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
