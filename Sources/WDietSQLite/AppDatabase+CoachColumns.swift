import Foundation
import WDietCore
import WDietStore

/// How the coach tables spell values that SQLite has no type for, in `WireFormat`'s forms. Records keep the
/// spelled-out form and convert through these, so that what a save returns is exactly what a later read returns.
/// Local dates are `YYYY-MM-DD`; instants' text order is time order, and SQLite's date functions read them.
extension AppDatabase {
    /// Lowercase UUID text (`WireFormat.idText`).
    static func idText(_ id: UUID) -> String { WireFormat.idText(id) }

    static func id(fromText text: String) throws -> UUID {
        guard let id = uuid(text) else { throw unreadable }
        return id
    }

    /// UUID text in either case (`WireFormat.uuid`).
    static func uuid(_ text: String) -> UUID? { WireFormat.uuid(text) }

    static func localDate(fromText text: String) throws -> LocalDate {
        guard let date = LocalDate(iso: text) else { throw unreadable }
        return date
    }

    static func instant(fromStoredText text: String) throws -> Date {
        guard let date = instant(fromText: text) else { throw unreadable }
        return date
    }

    /// A row that does not decode was written by something other than these stores.
    static let unreadable = StoreError.unavailable("A stored value could not be read")

    /// `WireFormat.instantText`: the same text a later read of the row returns.
    static func instantText(_ date: Date) -> String { WireFormat.instantText(date) }

    /// Accepts exactly the form `instantText` writes.
    static func instant(fromText text: String) -> Date? { WireFormat.instant(exactText: text) }
}
