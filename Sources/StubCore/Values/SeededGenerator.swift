/// A deterministic generator: the same seed gives the same sequence on every run and platform.
///
/// SplitMix64: one 64-bit word of state, a fixed increment and a mixing step. Far from
/// cryptographic, and it need not be: it picks fake names and ids for stub responses, where what
/// matters is that a test run with `--seed 7` sees the same values every time.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    package init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in `0..<bound` (`bound` > 0), without modulo bias.
    ///
    /// Written out rather than left to `Int.random(in:using:)`: the standard library does not
    /// promise how it turns random bits into a bounded value, and a different Swift release could
    /// then change every seeded response. The high half of `bits × bound` is the value; the few
    /// products whose low half falls below `2⁶⁴ mod bound` are drawn again, which leaves every
    /// value equally likely.
    package mutating func next(below bound: UInt64) -> UInt64 {
        precondition(bound > 0, "a bound of zero has no values")
        var product = next().multipliedFullWidth(by: bound)
        if product.low < bound {
            let threshold = (0 &- bound) % bound
            while product.low < threshold {
                product = next().multipliedFullWidth(by: bound)
            }
        }
        return product.high
    }

    /// A uniform value in `lower...upper`, any two `Int`s with `lower <= upper`.
    package mutating func next(in lower: Int, _ upper: Int) -> Int {
        precondition(lower <= upper, "an empty range has no values")
        // The span in unsigned arithmetic: Int.min...Int.max does not fit an Int.
        let span = UInt64(bitPattern: Int64(upper) &- Int64(lower))
        let offset = span == .max ? next() : next(below: span + 1)
        return lower &+ Int(truncatingIfNeeded: offset)
    }

    /// One element of a non-empty list.
    mutating func pick<T>(_ list: [T]) -> T {
        list[Int(next(below: UInt64(list.count)))]
    }
}
