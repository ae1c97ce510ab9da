/// A small seeded generator (SplitMix64): the same seed gives the same values on every machine and run, which
/// `SystemRandomNumberGenerator` cannot — for the sync client's backoff in tests (and a replayed bug report), the
/// developer tools' seed data and benchmarks, and tests that generate their input. Not for secrets.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in 0..<bound (bound > 0).
    public mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}
