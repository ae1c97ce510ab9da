import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WDietCore
import WDietTestSupport

/// 001 §5's validation table, row by row: the API answers each rule with the table's message, verbatim, under the
/// member the page sends, and the page's script (`profile-rules.js`) gives the same catalog key. The browser test
/// `e2e/test_profile.py::test_every_message_matches_the_api` runs the script's rules against these rows too.
@Suite("Profile validation messages (001 §5)")
struct ProfileValidationMessagesTests {
    enum Value: Sendable {
        case text(String), number(Double), null, list([String])

        var json: Any {
            switch self {
            case .text(let text): text
            case .number(let number): number
            case .null: NSNull()
            case .list(let list): list
            }
        }
    }

    struct Row: Sendable, CustomStringConvertible {
        var member: String
        var value: Value
        var message: String
        var description: String { "\(member) = \(value) → \(message)" }
    }

    /// TestApp's clock: 2026-03-01 in Berlin.
    static let rows: [Row] = [
        Row(member: "dateOfBirth", value: .text("2015-01-01"), message: "You must be at least 13 years old to use w-diet"),
        Row(member: "dateOfBirth", value: .text("1900-01-01"), message: "Please enter a valid date of birth"),
        Row(member: "dateOfBirth", value: .text("2026-03-02"), message: "Date of birth cannot be in the future"),
        Row(member: "sex", value: .null, message: "Please select your gender"),
        Row(member: "heightCm", value: .number(49.9), message: "Height must be at least 50 cm (1'8\")"),
        Row(member: "heightCm", value: .number(300.1), message: "Height must be less than 300 cm (9'10\")"),
        Row(member: "heightCm", value: .text("tall"), message: "Please enter a valid number"),
        Row(member: "weightKg", value: .number(19.9), message: "Weight must be at least 20 kg (44 lbs)"),
        Row(member: "weightKg", value: .number(500.1), message: "Weight must be less than 500 kg (1102 lbs)"),
        Row(member: "weightKg", value: .text("heavy"), message: "Please enter a valid number"),
        Row(member: "targetWeightKg", value: .number(19.9), message: "Target weight must be at least 20 kg (44 lbs)"),
        Row(member: "targetWeightKg", value: .number(500.1), message: "Target weight must be less than 500 kg (1102 lbs)"),
        Row(member: "targetWeightKg", value: .text("light"), message: "Please enter a valid number"),
        Row(member: "goal", value: .null, message: "Please select your primary goal"),
        Row(member: "targetDate", value: .text("2026-03-01"), message: "Target date must be in the future"),
        Row(member: "targetDate", value: .text("2028-03-02"), message: "Target date must be within 2 years"),
        Row(member: "activity", value: .null, message: "Please select your activity level"),
        Row(member: "dietaryPreferences", value: .list((1...11).map { "Diet \($0)" }), message: "Maximum 10 dietary preferences allowed"),
        Row(member: "allergies", value: .list((1...21).map { "Food \($0)" }), message: "Maximum 20 allergies allowed"),
        Row(member: "mealsPerDay", value: .number(0), message: "At least 1 meal per day required"),
        Row(member: "mealsPerDay", value: .number(11), message: "Maximum 10 meals per day"),
    ]

    static let rulesScript: String = {
        let url = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/WDietServer/Resources/public/assets/js/profile-rules.js")
        return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    }()

    @Test("the API answers the rule with 001's message", arguments: rows)
    func api(_ row: Row) async throws {
        let t = try TestApp()
        try await t.app.test(.router) { client in
            let session = try await client.signInWithProfile()
            let response = try await client.api(.put, "/api/v1/profile", session, json: APIFixtures.profile([row.member: row.value.json]))
            #expect(response.status == .unprocessableContent)
            #expect(try response.errorDetail().fields == [row.member: row.message])
        }
    }

    @Test("the page's script names the message's catalog key, so it says the same words in every language", arguments: rows)
    func script(_ row: Row) {
        let keys = StringCatalog.shared.keys(of: .english).filter { $0.hasPrefix("profile.") && Strings.english($0) == row.message }
        #expect(keys.count == 1, "one catalog key holds \(row.message)")
        for key in keys { #expect(Self.rulesScript.contains("t(\"\(key)\")"), "\(key)") }
    }

    @Test("every message of the table is covered by a row")
    func coverage() {
        #expect(Set(Self.rows.map(\.message)).count == 19, "21 rules, 19 distinct messages")
        #expect(Self.rows.count == 21)
    }
}
