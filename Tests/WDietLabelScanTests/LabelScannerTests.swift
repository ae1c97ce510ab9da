import Foundation
import Testing
import WDietCore
@testable import WDietLabelScan

@Suite("Label scanner")
struct LabelScannerTests {
    @Test("bytes that are no picture are refused as notAnImage or, without the tools, ocrUnavailable")
    func notAnImage() async {
        let scanner = LabelScanner()
        do {
            _ = try await scanner.read(image: Data("hello".utf8), crop: nil)
            Issue.record("read a label from five letters")
        } catch {
            #expect(error == .notAnImage || LabelScanner.unavailableReason() != nil)
        }
    }
}
