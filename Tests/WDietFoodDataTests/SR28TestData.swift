import Foundation
import WDietFoodData
import WDietTestSupport

/// The real SR28 files in the shared datasets folder, parsed once per test run (parsing in a debug build
/// takes a few seconds, and every suite here reads the same files).
enum SR28TestData {
    /// `shared/` sits beside the package root; found from this file's path so the tests run from any directory.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // WDietFoodDataTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("../shared/datasets/usda-sr28")
        .standardizedFileURL

    /// Made off Swift's cooperative threads (`SharedTestValue` says why).
    static let catalog = SharedTestValue<SR28Catalog> { try SR28Reader.read(directory: directory) }
}
