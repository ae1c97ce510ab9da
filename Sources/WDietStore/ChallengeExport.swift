import Foundation
import WDietCore

/// The Challenge's own export (003 Settings → "Export (JSON/CSV)"; docs/challenge.md). JSON: the challenge and every
/// row of it in the sync coding (what an import of the account's export reads back). CSV: one line per day of the
/// challenge up to today (`days`) or one per week (`weeks`), RFC 4180 quoting, CRLF line ends, a header row; numbers
/// with a dot; column names in English like the account export's (a data format other programs read).
public enum ChallengeExport {
    public static func json(_ data: ChallengeData) throws -> SyncJSON {
        func rows<V: ChallengeRowValue>(_ values: [V]) throws -> SyncJSON { .array(try values.map(SyncRules.rowData)) }
        return .object([
            "format": .string("w-diet challenge export"),
            "version": .number(1),
            "challenge": try SyncRules.rowData(data.challenge),
            "nutrition": try rows(data.nutrition.values.sorted { $0.date < $1.date }),
            "workouts": try rows(data.workouts.values.sorted { $0.date < $1.date }),
            "habits": try rows(data.habits.values.sorted { $0.date < $1.date }),
            "photos": try rows(data.photos.values.sorted { $0.week < $1.week }),
            "weighIns": try rows(data.weighIns.values.sorted { $0.week < $1.week }),
            "settings": try data.settings.map(SyncRules.rowData) ?? .null,
        ])
    }

    public enum Table: String, Sendable, CaseIterable { case days, weeks }

    public static func csv(_ data: ChallengeData, today: LocalDate, table: Table = .days) -> String {
        var lines: [[String]] = []
        let challenge = data.challenge
        switch table {
        case .days:
            lines.append(["date", "week", "nutrition", "nutritionSource", "kcal", "protein", "carbs", "fat", "nutritionNotes",
                          "workout", "minutes", "workoutNotes", "water", "steps", "sleep"])
            var day = challenge.startDate
            while day <= min(today, challenge.lastDate) {
                let log = data.nutrition[day]
                var state = "", source = "", values: [Double?] = [nil, nil, nil, nil]
                switch data.nutritionState(on: day) {
                case .pending: state = "pending"
                case .skipped: state = "skipped"
                case let .done(kcal, protein, carbs, fat, fromMeals):
                    state = "logged"
                    source = fromMeals ? "meals" : "typed"
                    values = [kcal, protein, carbs, fat]
                }
                let workout = data.workouts[day], habits = data.habits[day]
                lines.append([day.iso, String(challenge.week(of: day) ?? 0), state, source] + values.map(number)
                             + [log?.notes ?? "", workout?.type.rawValue ?? "", workout?.minutes.map(String.init) ?? "", workout?.notes ?? "",
                                flag(habits?.water), flag(habits?.steps), flag(habits?.sleep)])
                day = day.adding(days: 1)
            }
        case .weeks:
            lines.append(["week", "monday", "score", "colour", "nutritionDays", "workoutDays", "habitTicks", "photo", "photoLate",
                          "weighInKg", "weighInLate", "waistCm", "hipsCm", "chestCm", "weighInNotes", "avgKcal", "avgProtein", "avgCarbs", "avgFat"])
            for week in today >= challenge.startDate ? Array(1...challenge.currentWeek(today: today)) : [] {
                let score = data.score(week: week, today: today)
                let photo = data.photos[week], weighIn = data.weighIns[week]
                let average = data.macroAverage(week: week, today: today)
                lines.append([String(week), challenge.monday(ofWeek: week).iso, String(score.score), score.colour.rawValue,
                              String(score.nutritionDays), String(score.workoutDays), String(score.habitTicks),
                              photo.map { _ in "yes" } ?? "no", photo.map { flag($0.isLate(in: challenge)) } ?? "",
                              number(weighIn?.kg), weighIn.map { flag($0.isLate(in: challenge)) } ?? "",
                              number(weighIn?.waistCm), number(weighIn?.hipsCm), number(weighIn?.chestCm), weighIn?.notes ?? "",
                              number(average.kcal), number(average.protein), number(average.carbs), number(average.fat)])
            }
        }
        return lines.map { $0.map(quoted).joined(separator: ",") }.joined(separator: "\r\n") + "\r\n"
    }

    static func flag(_ value: Bool?) -> String { value.map { $0 ? "yes" : "no" } ?? "" }

    static func number(_ value: Double?) -> String {
        guard let value else { return "" }
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    /// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled. A field that a spreadsheet would
    /// run as a formula (`=`, `+`, `-`, `@` first) is prefixed with `'`.
    static func quoted(_ field: String) -> String {
        var text = field
        if let first = text.first, "=+-@".contains(first), Double(text) == nil { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
