import Foundation
import PostgresNIO
import WDietCore

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
