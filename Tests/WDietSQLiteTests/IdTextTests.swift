import Foundation
import Testing
import WDietStore
@testable import WDietSQLite

/// Ids are spelled and parsed by hand on the hot path; they must agree with Foundation's own spelling.
@Suite("Id text")
struct IdTextTests {
    @Test("written lowercase, exactly Foundation's text lowercased")
    func written() {
        let id = UUID(uuidString: "6F1C2B8E-4A7D-4C1B-9E3A-2D5F8A7B6C01")!
        #expect(WireFormat.idText(id) == "6f1c2b8e-4a7d-4c1b-9e3a-2d5f8a7b6c01")
        for _ in 0..<200 {
            let random = UUID()
            #expect(WireFormat.idText(random) == random.uuidString.lowercased())
        }
    }

    @Test("read in either case; anything else is no id")
    func read() {
        let id = UUID(uuidString: "0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D")!
        #expect(WireFormat.uuid("0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d") == id)
        #expect(WireFormat.uuid("0A1B2C3D-4E5F-4A6B-8C7D-9E0F1A2B3C4D") == id)
        #expect(WireFormat.uuid("0a1B2c3D-4e5F-4A6b-8C7d-9e0F1a2B3c4D") == id)
        for bad in ["", "not-a-uuid", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4dd",
                    "0a1b2c3d_4e5f-4a6b-8c7d-9e0f1a2b3c4d", "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4g", "0a1b2c3d4e5f4a6b8c7d9e0f1a2b3c4d0000"] {
            #expect(WireFormat.uuid(bad) == nil, "\(bad)")
        }
    }
}
