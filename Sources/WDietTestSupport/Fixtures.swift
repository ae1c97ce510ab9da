import Foundation
import WDietCore

/// Shared fixtures for the test targets.
public enum Fixtures {
    public static func utc(_ iso: String) -> Date {
        ISO8601DateFormatter().date(from: iso)!
    }
}
