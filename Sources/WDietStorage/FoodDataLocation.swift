import Foundation
import WDietFoodData

/// Where the programs find the USDA SR28 files: `--from`, else `$WDIET_FOOD_DATA`, else
/// `../shared/datasets/usda-sr28`. Read at the edge, like `StoreLocation`; the libraries never read the environment.
public enum FoodDataLocation {
    public static let defaultPath = "../shared/datasets/usda-sr28"
    public static let environmentVariable = "WDIET_FOOD_DATA"

    /// The folders tried, in order.
    public static func candidates(
        from option: String?, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> [String] {
        if let option { return [option] }
        var candidates: [String] = []
        if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
            candidates.append(fromEnvironment)
        }
        candidates.append(defaultPath)
        return candidates
    }

    /// The first candidate folder that holds all five SR28 files, or nil.
    public static func directory(from option: String?) -> URL? {
        candidates(from: option)
            .map { URL(fileURLWithPath: $0).standardizedFileURL }
            .first { SR28Files.exist(in: $0) }
    }

    /// One line for a person whose SR28 files were not found.
    public static func missingMessage(from option: String?) -> String {
        let looked = candidates(from: option)
            .map { URL(fileURLWithPath: $0).standardizedFileURL.path }
            .joined(separator: ", then ")
        return "USDA SR28 food data not found (looked in \(looked)). "
            + "Download it with scripts/fetch-food-data.sh, then pass --from DIR or set \(environmentVariable)."
    }
}
