import Foundation

/// The theme a person chose in Settings (PRODUCT.md "appearance": Auto/Light/Dark, default Auto). Auto is no
/// choice at all (nil where an `Appearance?` is kept): the page follows the system's `prefers-color-scheme`.
public enum Appearance: String, CaseIterable, Hashable, Sendable, Codable {
    case light
    case dark
}
