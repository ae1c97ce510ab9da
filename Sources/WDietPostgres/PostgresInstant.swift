import Foundation
import NIOCore
import PostgresNIO

/// An instant as the stores write and read `timestamptz`: whole milliseconds, as SQLite's text keeps them, so both
/// backends hand back equal `Date`s. (postgres-nio's own `Date` encoding truncates to the microsecond below, which
/// turns .123 s into .122999 s.)
struct PostgresInstant: PostgresNonThrowingEncodable, PostgresDecodable, Hashable, Sendable {
    /// Milliseconds since 1970.
    let milliseconds: Int64

    init(_ date: Date) {
        milliseconds = Int64((date.timeIntervalSince1970 * 1_000).rounded())
    }

    init(milliseconds: Int64) {
        self.milliseconds = milliseconds
    }

    /// Built the way the SQLite store builds it from its text, so the two are the same `Date` to the bit.
    var date: Date { Date(timeIntervalSince1970: Double(milliseconds) / 1_000) }

    /// PostgreSQL counts timestamps in microseconds from 2000-01-01T00:00:00Z.
    static let postgresEpochMilliseconds: Int64 = 946_684_800_000

    static var psqlType: PostgresDataType { .timestamptz }
    static var psqlFormat: PostgresFormat { .binary }

    func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
        byteBuffer.writeInteger((milliseconds - Self.postgresEpochMilliseconds) * 1_000)
    }

    init<JSONDecoder: PostgresJSONDecoder>(
        from buffer: inout ByteBuffer, type: PostgresDataType, format: PostgresFormat,
        context: PostgresDecodingContext<JSONDecoder>
    ) throws {
        guard format == .binary, type == .timestamptz || type == .timestamp, buffer.readableBytes == 8,
            let microseconds = buffer.readInteger(as: Int64.self)
        else { throw PostgresDecodingError.Code.typeMismatch }
        // Rows these stores wrote hold whole milliseconds; anything finer is rounded to the nearest.
        let (quotient, remainder) = microseconds.quotientAndRemainder(dividingBy: 1_000)
        let rounded = remainder >= 500 ? quotient + 1 : remainder < -500 ? quotient - 1 : quotient
        milliseconds = rounded + Self.postgresEpochMilliseconds
    }
}
