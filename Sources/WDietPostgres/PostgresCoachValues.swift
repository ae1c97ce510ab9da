import Foundation
import PostgresNIO
import WDietCore

/// An instant as the coach tables store it: whole milliseconds since 1970, written to and read from `timestamptz`
/// in PostgreSQL's binary form (microseconds since 2000) with integer arithmetic.
///
/// Not `Date`'s own coding: postgres-nio writes a `Date` by truncating a floating-point product, so 11:30:00.250
/// can land as .249999, and reads it back through another division. SQLite stores milliseconds as text; rounding
/// to the same milliseconds here, exactly, is what makes both backends return equal `Date`s.
struct PostgresInstant: PostgresNonThrowingEncodable, PostgresDecodable, Sendable {
    var milliseconds: Int64

    /// 2000-01-01T00:00:00Z, PostgreSQL's epoch, in milliseconds since 1970.
    static let postgresEpochMilliseconds: Int64 = 946_684_800_000

    init(_ date: Date) {
        milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }

    /// The same division SQLite's reader does, so the `Date`s are bit for bit the same.
    var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    static var psqlType: PostgresDataType { .timestamptz }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger((milliseconds - Self.postgresEpochMilliseconds) * 1_000)
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard type == .timestamptz, format == .binary else { throw PostgresDecodingError.Code.typeMismatch }
        guard buffer.readableBytes == 8, let microseconds = buffer.readInteger(as: Int64.self) else {
            throw PostgresDecodingError.Code.failure
        }
        // Floor division: instants before 2000 are negative.
        let (quotient, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000)
        milliseconds = (remainder < 0 ? quotient - 1 : quotient) + Self.postgresEpochMilliseconds
    }
}

/// A `LocalDate` as a PostgreSQL `date` (days since 2000-01-01, binary).
struct PostgresLocalDate: PostgresNonThrowingEncodable, PostgresDecodable, Sendable {
    var localDate: LocalDate

    /// 2000-01-01 in days since 1970.
    static let postgresEpochDay = 10_957

    init(_ localDate: LocalDate) {
        self.localDate = localDate
    }

    static var psqlType: PostgresDataType { .date }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger(Int32(localDate.daysSinceEpoch - Self.postgresEpochDay))
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat, context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard type == .date, format == .binary else { throw PostgresDecodingError.Code.typeMismatch }
        guard buffer.readableBytes == 4, let days = buffer.readInteger(as: Int32.self) else {
            throw PostgresDecodingError.Code.failure
        }
        localDate = LocalDate(daysSinceEpoch: Int(days) + Self.postgresEpochDay)
    }
}

extension PostgresRandomAccessRow {
    /// The column's value; a column that does not decode was written by something other than these stores.
    func value<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T {
        do {
            return try self[column].decode(T.self)
        } catch {
            throw PostgresStoreErrors.unreadable
        }
    }

    func instant(_ column: String) throws -> Date { try value(column, as: PostgresInstant.self).date }
    func optionalInstant(_ column: String) throws -> Date? { try value(column, as: PostgresInstant?.self)?.date }
    func localDate(_ column: String) throws -> LocalDate { try value(column, as: PostgresLocalDate.self).localDate }
    func optionalLocalDate(_ column: String) throws -> LocalDate? { try value(column, as: PostgresLocalDate?.self)?.localDate }
}
