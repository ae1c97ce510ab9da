import Foundation

extension String {
    /// `trimmingCharacters(in: .whitespacesAndNewlines)`, answered without Foundation when both ends are printable
    /// ASCII (nearly every name a person types): on Linux that call goes through `NSString` and was 1.5 % of a meal
    /// save's server CPU (`perf`, docs/benchmarks.md). Any other end goes to Foundation, whose set is not quite
    /// Unicode's White_Space (it has U+200B, for one).
    public func trimmingWhitespacesAndNewlines() -> String {
        guard let first = unicodeScalars.first?.value, let last = unicodeScalars.last?.value,
              (0x21...0x7E).contains(first), (0x21...0x7E).contains(last)
        else { return trimmingCharacters(in: .whitespacesAndNewlines) }
        return self
    }
}
