import Foundation
import GRDB
import Testing
import WDietStore
@testable import WDietSQLite

@Suite struct CoachColumnsTests {
    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"),
        (1_772_364_600.25, "2026-03-01T11:30:00.250Z"),
        (1_774_825_199.999, "2026-03-29T22:59:59.999Z"),
        (-0.001, "1969-12-31T23:59:59.999Z"),
        (951_782_400, "2000-02-29T00:00:00.000Z"),
    ])
    func writesInstantsAsUTCTextWithMilliseconds(seconds: Double, text: String) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(WireFormat.instantText(date) == text)
        #expect(AppDatabase.instant(fromText: text).map(AppDatabase.instantText) == text)
    }

    @Test func roundsToTheNearestMillisecond() {
        #expect(WireFormat.instantText(Date(timeIntervalSince1970: 1.0004)) == "1970-01-01T00:00:01.000Z")
        #expect(WireFormat.instantText(Date(timeIntervalSince1970: 1.0006)) == "1970-01-01T00:00:01.001Z")
    }

    @Test(arguments: ["2026-03-01 11:30:00.000", "2026-03-01T11:30:00Z", "2026-02-30T11:30:00.000Z", "2026-03-01T24:00:00.000Z", "2026-03-01T11:3a:00.000Z"])
    func refusesAnyOtherSpelling(text: String) {
        #expect(AppDatabase.instant(fromText: text) == nil)
    }

    @Test func constraintFailuresBecomeStoreErrorsWithoutSQL() {
        let check = DatabaseError(
            resultCode: .SQLITE_CONSTRAINT_CHECK, message: "CHECK constraint failed: kcal >= 0",
            sql: "INSERT INTO meals (kcal) VALUES (?)")
        let unique = DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE, message: "UNIQUE constraint failed: users.email")
        let busy = DatabaseError(resultCode: .SQLITE_BUSY, message: "database is locked", sql: "UPDATE syncVersion SET value = value + 1")
        let corrupt = DatabaseError(resultCode: .SQLITE_CORRUPT, message: "database disk image is malformed", sql: "SELECT * FROM meals")

        #expect(AppDatabase.storeError(from: check) == .invalid("Please check the values entered"))
        #expect(AppDatabase.storeError(from: unique) == .conflict("This already exists"))
        #expect(AppDatabase.storeError(from: busy) == .unavailable("The store is busy; please try again"))
        #expect(AppDatabase.storeError(from: corrupt) == .unavailable("The store is unavailable (code 11)"))
        #expect(AppDatabase.storeError(from: StoreError.notFound("Meal not found")) == .notFound("Meal not found"))
    }
}
