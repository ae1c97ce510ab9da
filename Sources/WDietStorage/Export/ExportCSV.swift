import Foundation
import WDietCore
import WDietStore
import ZIPFoundation

/// The CSV export (`GET /api/v1/export?format=csv`): a zip with one CSV file per table of the JSON document
/// (`account.csv`, `identities.csv`, `profile.csv`, `meals.csv`, `weights.csv`, `analytics_events.csv`,
/// `dismissed_tips.csv`, `rows.csv`; favourites and saved meals are generic rows), each UTF-8 with a header row, RFC 4180 quoting and CRLF line ends. Values are written as the
/// JSON document writes them (ids lowercase, instants ISO 8601 UTC, days `YYYY-MM-DD`); a value that is absent is
/// an empty cell; lists (dietary preferences, allergies, event properties) and a generic row's data are JSON text in
/// their cell. A meal's `slot` is the one chosen or, when none was, its local time's (002's buckets).
///
/// The zip is made by ZIPFoundation (deflate through the system's zlib) rather than by hand: a well-kept library
/// for a format with many corners (ZIP64, CRCs, the central directory), read back by the tests with the same library
/// and by the browser journey with Python's `zipfile`.
public enum ExportCSV {
    /// One file: its name in the zip and its rows, the header first.
    struct Table {
        var name: String
        var rows: [[String]]
    }

    static func tables(_ document: ExportDocument) throws -> [Table] {
        let account = document.account
        var tables = [
            Table(name: "account.csv", rows: [
                ["id", "email", "displayName", "createdAt", "language", "appearance"],
                [account.id, account.email ?? "", account.displayName, instant(account.createdAt), account.language ?? "",
                 account.appearance ?? ""],
            ]),
            Table(name: "identities.csv", rows: [["issuer", "email", "linkedAt"]] + account.identities.map {
                [$0.issuer, $0.email ?? "", instant($0.linkedAt)]
            }),
        ]
        // A meal without a chosen slot gets its local time's in the profile's zone (UTC before any profile).
        let slotZone = document.profile.flatMap { TimeZone(identifier: $0.timeZone) } ?? TimeZone(identifier: "UTC")!
        var profile = Table(name: "profile.csv", rows: [[
            "dateOfBirth", "sex", "genderDescription", "heightCm", "weightKg", "targetWeightKg", "targetDate", "goal", "activity",
            "dietaryPreferences", "allergies", "mealsPerDay", "timeZone", "eatingWindowStart", "planStartDate", "deficit",
            "weightUnit", "heightUnit", "planChangedOn", "planPreviousInputs", "version", "createdAt", "updatedAt",
            "planEarlierChanges",
        ]])
        if let p = document.profile {
            profile.rows.append([
                p.dateOfBirth.iso, p.sex.rawValue, p.genderDescription ?? "", number(p.heightCm), number(p.weightKg), number(p.targetWeightKg),
                p.targetDate?.iso ?? "", p.goal.rawValue, p.activity.rawValue, try json(p.dietaryPreferences), try json(p.allergies),
                String(p.mealsPerDay), p.timeZone, p.eatingWindowStart, p.planStartDate.iso, p.deficit.rawValue,
                p.weightUnit.rawValue, p.heightUnit.rawValue, p.planChange?.changedOn.iso ?? "",
                try p.planChange.map { try json($0.previous) } ?? "", String(p.version), instant(p.createdAt), instant(p.updatedAt),
                try json(p.earlierPlanChanges ?? []),
            ])
        }
        tables.append(profile)
        tables.append(Table(name: "meals.csv", rows: [[
            "id", "localDate", "loggedAt", "name", "source", "foodId", "grams", "calories", "protein", "carbs", "fat", "fiber",
            "version", "createdAt", "updatedAt", "slot",
        ]] + document.meals.map { m in
            [
                m.id, m.localDate.iso, instant(m.loggedAt), m.name, m.source.rawValue, m.foodId ?? "", number(m.grams),
                number(m.calories), number(m.protein), number(m.carbs), number(m.fat), number(m.fiber),
                String(m.version), instant(m.createdAt), instant(m.updatedAt),
                (m.slot ?? MealSlot(m.loggedAt, in: slotZone)).rawValue,
            ]
        }))
        tables.append(Table(name: "weights.csv", rows: [["id", "localDate", "loggedAt", "kg", "version", "createdAt", "updatedAt"]]
            + document.weights.map { w in
                [w.id, w.localDate.iso, instant(w.loggedAt), number(w.kg), String(w.version), instant(w.createdAt), instant(w.updatedAt)]
            }))
        tables.append(Table(name: "analytics_events.csv", rows: [["id", "occurredAt", "name", "properties"]]
            + (try document.analyticsEvents.map { e in [e.id, instant(e.occurredAt), e.name.rawValue, try json(e.properties)] })))
        tables.append(Table(name: "dismissed_tips.csv", rows: [["tip", "dismissedAt", "version"]]
            + document.dismissedTips.map { [$0.tip, instant($0.dismissedAt), String($0.version)] }))
        tables.append(Table(name: "rows.csv", rows: [["collection", "id", "data", "version", "createdAt", "updatedAt"]]
            + (try (document.rows ?? []).map { r in
                [r.collection, r.id, try r.data.canonicalText(), String(r.version), instant(r.createdAt), instant(r.updatedAt)]
            })))
        return tables
    }

    /// The zip's bytes.
    public static func zip(_ document: ExportDocument) throws -> Data {
        let archive = try Archive(accessMode: .create)
        for table in try tables(document) {
            try add(csv(table.rows), named: table.name, to: archive, modified: document.exportedAt, deflate: true)
        }
        var json = document
        json.media = nil
        try add(try json.jsonData(), named: jsonName, to: archive, modified: document.exportedAt, deflate: true)
        guard let data = archive.data else { throw ExportError.zipUnavailable }
        return data
    }

    enum ExportError: Error { case zipUnavailable }

    /// The JSON export inside the zip (the same document as `GET /export?format=json`, with its media): what
    /// `POST /import` reads from a zip.
    public static let jsonName = "export.json"

    /// RFC 4180: CRLF after every record, and a field quoted (its quotes doubled) when it holds a comma, a quote,
    /// a CR or a LF. A field that starts or ends with a space is quoted too, so spreadsheet programs keep it.
    static func csv(_ rows: [[String]]) -> Data {
        var text = ""
        text.reserveCapacity(rows.count * 128)
        for row in rows {
            for (index, field) in row.enumerated() {
                if index > 0 { text += "," }
                text += quoted(field)
            }
            text += "\r\n"
        }
        return Data(text.utf8)
    }

    static func quoted(_ field: String) -> String {
        let needsQuotes = field.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 10 || $0 == 13 }
            || field.first == " " || field.last == " "
        guard needsQuotes else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func instant(_ date: Date) -> String { WireFormat.instantText(date) }

    /// 350 → "350", 31.5 → "31.5", nil → "": the shortest text that reads back as the same Double.
    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return "\(value)"
    }

    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try ExportDocument.encoder.encode(value), as: UTF8.self)
    }
}
