import Foundation
import Testing
import WDietCore
@testable import WDietLabelScan

/// Where a scan's CPU goes (`LabelScanTimings.CPU`), as the measuring command sums it.
@Suite("Label scan CPU by stage")
struct LabelScanCPUTests {
    @Test("the stages' shares are summed over the photos: worked numbers")
    func stageShares() {
        var first = LabelScanTimings.CPU()
        first.preprocess = 0.1
        first.overviewOCR = 0.5
        first.panelOCR = 0.3
        first.parse = 0.1
        var second = LabelScanTimings.CPU()
        second.preprocess = 0.1
        second.overviewImage = 0.1
        second.overviewOCR = 0.7
        second.panelImage = 0.1
        #expect(abs(first.total - 1.0) < 1e-9)
        #expect(LabelAccuracy.stageShares([first, second]) == "CPU by stage: vips 0.20 s (10 %), pass 1 image 0.10 s (5 %), "
            + "pass 1 Tesseract 1.20 s (60 %), pass 2 image 0.10 s (5 %), pass 2 Tesseract 0.30 s (15 %), "
            + "panel finder and parser 0.10 s (5 %); 2.00 s in all")
    }

    @Test("a scan with both passes counts CPU in every stage it ran, and none in a pass it skipped",
          .enabled(if: LabelScanner.unavailableReason() == nil))
    func stagesOfAScan() async throws {
        let photo = try Data(contentsOf: LabelScannerTests.devFolder.appendingPathComponent("fda-mindee-default_sample.jpg"))
        var configuration = LabelScanner.Configuration()
        configuration.stopWhenOverviewComplete = false
        let both = try await LabelScanner(configuration: configuration).read(image: photo, crop: nil).timings.cpu
        #expect(both.preprocess > 0 && both.overviewOCR > 0 && both.panelOCR > 0 && both.parse > 0)
        // Early stop: the FDA sample is complete after pass 1, so pass 2 costs nothing.
        let one = try await LabelScanner().read(image: photo, crop: nil).timings.cpu
        #expect(one.overviewOCR > 0)
        #expect(one.panelImage == 0 && one.panelOCR == 0)
    }
}
