import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, answered without Foundation when neither end is white space
    /// (nearly every name a person types): on Linux that call goes through `NSString` and was 1.5 % of a meal save's
    /// server CPU (`perf`, docs/benchmarks.md). Unicode's White_Space property, which the test is, is the same set of
    /// scalars as `CharacterSet.whitespacesAndNewlines` (`TrimmingTests` checks every scalar), so the answer is the same.
    public func trimmingWhitespacesAndNewlines() -> String {
        guard let first = unicodeScalars.first, let last = unicodeScalars.last,
              first.properties.isWhitespace || last.properties.isWhitespace
        else { return self }
        return trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
