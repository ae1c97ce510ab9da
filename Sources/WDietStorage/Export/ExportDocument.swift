import Foundation
import WDietCore
import WDietStore

/// The JSON export (`GET /api/v1/export?format=json`) and what `POST /api/v1/import` reads back: one document,
/// `{"format": "w-diet-export", "formatVersion": 1, "exportedAt", "account", "profile", "meals", "weights",
/// "analyticsEvents", "dismissedTips", "rows"}`. Names follow the API's (a meal's kcal is `calories`, ids are lowercase,
/// instants ISO 8601 UTC with milliseconds, days `YYYY-MM-DD`); a member that has no value is left out.
///
/// The format is versioned: a change that an older reader would misread is a new `formatVersion`, and the import
/// refuses versions it does not know (422) rather than guess.
public struct ExportDocument: Codable, Sendable, Equatable {
    public static let formatName = "w-diet-export"
    public static let currentVersion = 1

    var format: String
    var formatVersion: Int
    var exportedAt: Date
    var account: Account
    var profile: ProfileDocument?
    var meals: [MealDocument]
    var weights: [WeightDocument]
    var analyticsEvents: [EventDocument]
    var dismissedTips: [TipDocument]
    /// Generic sync rows (the journal's). Added within format version 1: a document without it (every export made
    /// before) has none.
    var rows: [RowDocument]?
    /// The user's photos and recordings (docs/media.md "Export and import"): what each is and where its bytes are in
    /// the zip (`media/<id>.<ext>`); the JSON download lists them without their bytes. Added within format version 1
    /// and left out when there are none.
    public internal(set) var media: [MediaDocument]?

    struct Account: Codable, Sendable, Equatable {
        var id: String
        var email: String?
        var displayName: String
        var createdAt: Date
        /// Apple and Google accounts linked to this one: the provider and the address it gave, never the subject.
        var identities: [Identity]
        /// Settings → Language ("en", "de") and Appearance ("light", "dark"); left out for Automatic and Auto. Added
        /// within format version 1. An import does not read them (it goes into the signed-in account as it is).
        var language: String?
        var appearance: String?
    }

    struct Identity: Codable, Sendable, Equatable {
        var issuer: String
        var email: String?
        var linkedAt: Date
    }

    struct ProfileDocument: Codable, Sendable, Equatable {
        var dateOfBirth: LocalDate
        var sex: Sex
        /// Only with sex "other"; left out when there is none. Added within format version 1: a document without
        /// it (every export made before) reads as "no description".
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
        /// `HH:MM`, on a half hour; the window lasts 6 hours.
        var eatingWindowStart: String
        var planStartDate: LocalDate
        var deficit: DeficitSetting
        var weightUnit: WeightUnit
        var heightUnit: HeightUnit
        /// A saved change of the targets that waits for (or reached) the user's next local midnight: the target
        /// inputs it replaced and its day.
        var planChange: PlanChange?
        /// The changes before `planChange`, oldest first: which target inputs were in force on any past day. Added
        /// within format version 1 and left out when there are none: a document without it reads as no earlier changes.
        var earlierPlanChanges: [PlanChange]?
        var version: Int64
        var createdAt: Date
        var updatedAt: Date
    }

    struct MealDocument: Codable, Sendable, Equatable {
        var id: String
        var name: String
        var source: MealSource
        var foodId: String?
        var grams: Double?
        var calories: Double
        var protein: Double?
        var carbs: Double?
        var fat: Double?
        var fiber: Double?
        var loggedAt: Date
        var localDate: LocalDate
        /// The slot the person chose (issue 17); absent for a meal logged without one, whose slot is its local time's.
        var slot: MealSlot?
        var version: Int64
        var createdAt: Date
        var updatedAt: Date
    }

    struct WeightDocument: Codable, Sendable, Equatable {
        var id: String
        var kg: Double
        var loggedAt: Date
        var localDate: LocalDate
        var version: Int64
        var createdAt: Date
        var updatedAt: Date
    }

    struct EventDocument: Codable, Sendable, Equatable {
        var id: String
        var name: AnalyticsEventName
        var properties: [String: String]
        var occurredAt: Date
    }

    struct TipDocument: Codable, Sendable, Equatable {
        var tip: String
        var dismissedAt: Date
        var version: Int64
    }

    struct RowDocument: Codable, Sendable, Equatable {
        var collection: String
        var id: String
        /// The JSON object the row holds, as the client pushed it.
        var data: SyncJSON
        var version: Int64
        var createdAt: Date
        var updatedAt: Date
    }

    /// A photo or recording of the export; a row names it by `id` (a journal entry's `mediaIds`, a challenge photo's
    /// `mediaId`).
    public struct MediaDocument: Codable, Sendable, Equatable {
        public var id: String
        public var kind: MediaKind
        public var contentType: String
        public var bytes: Int
        public var width: Int?
        public var height: Int?
        public var createdAt: Date
        /// The bytes' path in the zip: `media/<id>.jpg` for a photo (its display JPEG), the recording's own extension.
        public var file: String
    }

    /// Read first, on its own (see `read(json:)`).
    struct Header: Decodable {
        var format: String?
        var formatVersion: Int?
    }
}

extension ExportDocument {
    /// `media`: the user's photos and recordings, listed in `media` (their bytes go in the zip only).
    public init(_ data: UserDataExport, exportedAt: Date, media: [StoredMedia] = []) {
        self.media = media.isEmpty ? nil : media.map {
            MediaDocument(
                id: WireFormat.idText($0.id), kind: $0.kind, contentType: $0.contentType, bytes: $0.bytes, width: $0.width,
                height: $0.height, createdAt: $0.createdAt,
                file: "media/\(WireFormat.idText($0.id)).\(ExportCSV.fileExtension($0.contentType))")
        }
        format = Self.formatName
        formatVersion = Self.currentVersion
        self.exportedAt = exportedAt
        account = Account(
            id: WireFormat.idText(data.account.id), email: data.account.email, displayName: data.account.displayName,
            createdAt: data.account.createdAt,
            identities: data.account.identities.map { Identity(issuer: $0.issuer, email: $0.email, linkedAt: $0.linkedAt) },
            language: data.account.language?.tag, appearance: data.account.appearance?.rawValue
        )
        profile = data.profile.map { stored in
            let p = stored.profile
            return ProfileDocument(
                dateOfBirth: p.dateOfBirth, sex: p.sex, genderDescription: p.genderDescription, heightCm: p.heightCm,
                weightKg: p.weightKg, targetWeightKg: p.targetWeightKg, targetDate: p.targetDate, goal: p.goal,
                activity: p.activity, dietaryPreferences: p.dietaryPreferences, allergies: p.allergies,
                mealsPerDay: p.mealsPerDay, timeZone: p.timeZoneIdentifier, eatingWindowStart: EatingWindow.clock(p.eatingWindow.startMinute),
                planStartDate: p.planStartDate, deficit: p.deficit, weightUnit: p.weightUnit, heightUnit: p.heightUnit,
                planChange: stored.planChange, earlierPlanChanges: stored.earlierPlanChanges.isEmpty ? nil : stored.earlierPlanChanges,
                version: stored.version, createdAt: stored.createdAt, updatedAt: stored.updatedAt
            )
        }
        meals = data.meals.map { stored in
            let m = stored.meal
            return MealDocument(
                id: WireFormat.idText(m.id), name: m.name, source: m.source, foodId: m.foodId, grams: m.grams,
                calories: m.kcal, protein: m.protein, carbs: m.carbs, fat: m.fat, fiber: m.fiber, loggedAt: m.loggedAt,
                localDate: stored.localDate, slot: m.slot, version: stored.version, createdAt: stored.createdAt,
                updatedAt: stored.updatedAt
            )
        }
        weights = data.weights.map { stored in
            WeightDocument(
                id: WireFormat.idText(stored.entry.id), kg: stored.entry.kg, loggedAt: stored.entry.loggedAt,
                localDate: stored.localDate, version: stored.version, createdAt: stored.createdAt, updatedAt: stored.updatedAt
            )
        }
        analyticsEvents = data.analyticsEvents.map {
            EventDocument(id: WireFormat.idText($0.id), name: $0.name, properties: $0.properties, occurredAt: $0.occurredAt)
        }
        dismissedTips = data.dismissedTips.map { TipDocument(tip: $0.tipId, dismissedAt: $0.dismissedAt, version: $0.version) }
        rows = data.rows.map {
            RowDocument(
                collection: $0.collection, id: WireFormat.idText($0.id), data: $0.data, version: $0.version,
                createdAt: $0.createdAt, updatedAt: $0.updatedAt)
        }
    }

    /// The document as the one JSON text the export sends (keys sorted, so the same data is the same bytes).
    public func jsonData() throws -> Data {
        try Self.encoder.encode(self)
    }

    /// Why a JSON text is not an export this version reads. The server answers each with its own status (400 for
    /// `notJSON`, 422 for the others); the messages it shows are the catalog's.
    public enum ReadError: Error {
        case notJSON
        /// JSON, but not `"format": "w-diet-export"`.
        case otherFormat
        /// A `formatVersion` this version does not know (nil: none given); it is refused rather than guessed at.
        case unsupportedVersion(Int?)
        /// The right format and version, but a member missing or of the wrong type.
        case malformed(DecodingError)
    }

    /// A JSON export read back. The header is read first, on its own, so that a document of another format or
    /// version is refused as such before its members are judged.
    public static func read(json bytes: Data) throws(ReadError) -> ExportDocument {
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: bytes)
        } catch {
            throw .notJSON
        }
        guard header.format == formatName else { throw .otherFormat }
        guard header.formatVersion == currentVersion else { throw .unsupportedVersion(header.formatVersion) }
        do {
            return try decoder.decode(ExportDocument.self, from: bytes)
        } catch let error as DecodingError {
            throw .malformed(error)
        } catch {
            throw .notJSON
        }
    }

    /// A row's `localDate` must be a day its `loggedAt` falls on in some time zone (UTC−12 … UTC+14): it is kept as
    /// exported (a day in the zone the person was in then, which a later zone change must not move), but one that no
    /// zone gives is refused (issue 21 item 9).
    static func checkLocalDate(_ day: LocalDate, of instant: Date, at path: String, into errors: inout FieldErrors) {
        let possible = DateWindow.possibleLocalDays(of: instant)
        guard !possible.contains(day) else { return }
        errors.add(path, Strings.current("input.localDateContradicts", [
            "date": day.iso, "from": possible.lowerBound.iso, "to": possible.upperBound.iso,
        ]))
    }

    /// The store's value for an import into `userId`, or every problem found, by the member's path
    /// (`meals.12.calories`). The account's members are not read: an import goes into the signed-in account as it is.
    public func importValue(into userId: UUID) -> Result<UserDataExport, FieldErrors> {
        var errors = FieldErrors()
        func id(_ text: String, at path: String) -> UUID {
            guard let id = WireFormat.uuid(text) else {
                errors.add(path, Strings.current("api.uuid"))
                return UUID()
            }
            return id
        }
        var stored: StoredProfile?
        if let p = profile {
            if let window = EatingWindow(start: p.eatingWindowStart) {
                let profile = Profile(
                    dateOfBirth: p.dateOfBirth, sex: p.sex, heightCm: p.heightCm, weightKg: p.weightKg,
                    targetWeightKg: p.targetWeightKg, targetDate: p.targetDate, goal: p.goal, activity: p.activity,
                    dietaryPreferences: p.dietaryPreferences, allergies: p.allergies, mealsPerDay: p.mealsPerDay,
                    timeZoneIdentifier: p.timeZone, eatingWindow: window, planStartDate: p.planStartDate, deficit: p.deficit,
                    weightUnit: p.weightUnit, heightUnit: p.heightUnit,
                    // Trimmed as every form and API trims it, so a hand-edited export with "" or spaces still imports.
                    genderDescription: ProfileValidator.normalizedGenderDescription(p.genderDescription)
                )
                if TimeZone(identifier: p.timeZone) == nil { errors.add("profile.timeZone", Strings.current("export.timeZone")) }
                do { try StoreValidation.validate(profile) } catch { errors.add("profile", "\(error)") }
                stored = StoredProfile(
                    profile: profile, planChange: p.planChange, earlierPlanChanges: p.earlierPlanChanges ?? [], userId: userId,
                    version: p.version,
                    createdAt: p.createdAt, updatedAt: p.updatedAt
                )
            } else {
                errors.add("profile.eatingWindowStart", Strings.current("export.eatingWindow"))
            }
        }
        let meals = self.meals.enumerated().map { index, m in
            let meal = Meal(
                id: id(m.id, at: "meals.\(index).id"), name: m.name, foodId: m.foodId, grams: m.grams, kcal: m.calories,
                protein: m.protein, carbs: m.carbs, fat: m.fat, fiber: m.fiber, source: m.source, loggedAt: m.loggedAt,
                slot: m.slot
            )
            do { try StoreValidation.validate(meal) } catch { errors.add("meals.\(index)", "\(error)") }
            Self.checkLocalDate(m.localDate, of: m.loggedAt, at: "meals.\(index).localDate", into: &errors)
            return StoredMeal(
                meal: meal, userId: userId, localDate: m.localDate, version: m.version, createdAt: m.createdAt, updatedAt: m.updatedAt
            )
        }
        let weights = self.weights.enumerated().map { index, w in
            let entry = WeightEntry(id: id(w.id, at: "weights.\(index).id"), kg: w.kg, loggedAt: w.loggedAt)
            do { try StoreValidation.validate(entry) } catch { errors.add("weights.\(index)", "\(error)") }
            Self.checkLocalDate(w.localDate, of: w.loggedAt, at: "weights.\(index).localDate", into: &errors)
            return StoredWeight(
                entry: entry, userId: userId, localDate: w.localDate, version: w.version, createdAt: w.createdAt, updatedAt: w.updatedAt
            )
        }
        let events = analyticsEvents.enumerated().map { index, e in
            AnalyticsEvent(id: id(e.id, at: "analyticsEvents.\(index).id"), name: e.name, properties: e.properties, occurredAt: e.occurredAt)
        }
        for (index, tip) in dismissedTips.enumerated() where tip.tip.isEmpty {
            errors.add("dismissedTips.\(index).tip", Strings.current("export.required"))
        }
        let rows = (self.rows ?? []).enumerated().map { index, r in
            let row = UserDataExport.Row(
                collection: r.collection, id: id(r.id, at: "rows.\(index).id"), data: r.data, version: r.version,
                createdAt: r.createdAt, updatedAt: r.updatedAt)
            do {
                try SyncRules.validateRowCollection(r.collection)
                try SyncRules.validateRowData(r.data)
            } catch {
                errors.add("rows.\(index)", "\(error)")
            }
            return row
        }
        if !errors.isEmpty { return .failure(errors) }
        let account = UserDataExport.Account(id: userId, email: nil, displayName: "", createdAt: self.account.createdAt, identities: [])
        return .success(UserDataExport(
            account: account, profile: stored, meals: meals, weights: weights, analyticsEvents: events,
            dismissedTips: dismissedTips.map { UserDataExport.DismissedTip(tipId: $0.tip, dismissedAt: $0.dismissedAt, version: $0.version) },
            rows: rows
        ))
    }
}

/// Problems found in a document, by path; only the first `limit` are kept, so a broken 10,000-row file answers
/// with a readable error, not 10,000 lines.
public struct FieldErrors: Error, Sendable {
    static let limit = 20
    public private(set) var fields: [String: String] = [:]
    /// Every problem found, also those past the limit.
    public private(set) var count = 0

    public var isEmpty: Bool { count == 0 }

    mutating func add(_ path: String, _ message: String) {
        count += 1
        if fields.count < Self.limit, fields[path] == nil { fields[path] = message }
    }
}

extension ExportDocument {
    /// The API's JSON, byte for byte (`WireFormat`'s pair, which the server's `APICoding` uses too).
    static var encoder: JSONEncoder { WireFormat.jsonEncoder }
    static var decoder: JSONDecoder { WireFormat.jsonDecoder }
}
