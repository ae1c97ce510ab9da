import Foundation
import Testing
import WDietStore

/// One spelling of ids and instants for the API, sync, the export, the client and the SQLite columns.
@Suite struct WireFormatTests {
    @Test func instantsAreWrittenToTheRoundedMillisecond() {
        // 2026-03-01T11:30:00Z is 1,772,364,600 s after 1970.
        #expect(WireFormat.instantText(Date(timeIntervalSince1970: 1_772_364_600)) == "2026-03-01T11:30:00.000Z")
        #expect(WireFormat.instantText(Date(timeIntervalSince1970: 1_772_364_600.1236)) == "2026-03-01T11:30:00.124Z")
        #expect(WireFormat.instantText(Date(timeIntervalSince1970: 1_772_364_600.1234)) == "2026-03-01T11:30:00.123Z")
        #expect(WireFormat.instantText(Date(timeIntervalSince1970: 1_772_364_599.9996)) == "2026-03-01T11:30:00.000Z")
        #expect(WireFormat.instantText(Date(timeIntervalSince1970: -0.5)) == "1969-12-31T23:59:59.500Z")
    }

    @Test func everyISOFormOfAnInstantReadsAsTheSameDate() throws {
        let expected = Date(timeIntervalSince1970: 1_772_364_600)
        for text in ["2026-03-01T11:30:00Z", "2026-03-01T11:30:00.000Z", "2026-03-01T12:30:00+01:00", "2026-03-01T11:30:00.0004Z"] {
            #expect(WireFormat.instant(from: text) == expected, "\(text)")
        }
        // Read to the millisecond (Foundation keeps three digits of a longer fraction), as the stores keep it: the
        // same Date as the value read back from a row.
        let fraction = try #require(WireFormat.instant(from: "2026-03-01T11:30:00.1236Z"))
        #expect(WireFormat.instantText(fraction) == "2026-03-01T11:30:00.123Z")
        #expect(fraction == WireFormat.instant(from: "2026-03-01T11:30:00.123Z"))
        for text in ["", "2026-03-01", "2026-03-01 11:30:00Z", "2026-02-30T11:30:00.000Z", "2026-02-30T11:30:00Z", "yesterday"] {
            #expect(WireFormat.instant(from: text) == nil, "\(text)")
        }
    }

    @Test func syncWritesAndReadsWhatTheWireFormatDoes() {
        let date = Date(timeIntervalSince1970: 1_772_364_600.987)
        #expect(SyncCoding.instantText(date) == WireFormat.instantText(date))
        #expect(SyncCoding.instant(from: "2026-03-01T12:30:00.987+01:00") == WireFormat.instant(from: "2026-03-01T11:30:00.987Z"))
    }

    @Test func idsAreLowercaseAndReadInEitherCase() throws {
        let id = try #require(UUID(uuidString: "0191F3A2-7B4C-7D8E-9F01-23456789ABCD"))
        #expect(WireFormat.idText(id) == "0191f3a2-7b4c-7d8e-9f01-23456789abcd")
        #expect(WireFormat.uuid("0191F3A2-7B4C-7D8E-9F01-23456789ABCD") == id)
        #expect(WireFormat.uuid("0191f3a2-7b4c-7d8e-9f01-23456789abcd") == id)
        #expect(WireFormat.uuid("0191f3a2-7b4c-7d8e-9f01-23456789abc") == nil)
        #expect(WireFormat.uuid("0191f3a2x7b4c-7d8e-9f01-23456789abcd") == nil)
    }
}
