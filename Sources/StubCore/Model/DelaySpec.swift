import StubSystem

/// How long to wait before responding: fixed, uniform between bounds, or lognormal like real latency.
public enum DelaySpec: Sendable, Equatable {
    /// Always `ms` milliseconds.
    case fixed(ms: Int)
    /// Uniformly between `min` and `max` milliseconds.
    case uniform(min: Int, max: Int)
    /// Lognormal with the given median (ms) and sigma, capped at `max` ms.
    case lognormal(median: Double, sigma: Double, max: Int)

    /// Draws one delay in milliseconds.
    public func sample<R: RandomNumberGenerator>(using rng: inout R) -> Int {
        switch self {
        case .fixed(let ms):
            return ms
        case .uniform(let lo, let hi):
            return lo >= hi ? lo : Int.random(in: lo...hi, using: &rng)
        case .lognormal(let median, let sigma, let cap):
            // Box-Muller: one standard normal draw is enough per request.
            let u1 = Double.random(in: Double.ulpOfOne..<1, using: &rng)
            let u2 = Double.random(in: 0..<1, using: &rng)
            let z = (-2 * LibC.log(u1)).squareRoot() * LibC.cos(2 * Double.pi * u2)
            let value = median * LibC.exp(sigma * z)
            // A huge median or sigma puts the draw beyond `Int` (∞, or NaN for 0 × ∞), and a
            // negative median below it: it is capped before it becomes an `Int`.
            guard value > 0 else { return 0 }
            return value >= Double(cap) ? cap : Swift.max(0, Int(value.rounded()))
        }
    }

    /// Draws one delay with the system random generator.
    public func sample() -> Int {
        var rng = SystemRandomNumberGenerator()
        return sample(using: &rng)
    }

    /// The JSON form used in stub files and the admin API.
    package var json: JSONValue {
        switch self {
        case .fixed(let ms): return .object([("ms", .number(Double(ms)))])
        case .uniform(let lo, let hi): return .object([("min", .number(Double(lo))), ("max", .number(Double(hi)))])
        case .lognormal(let m, let s, let cap):
            return .object([("median", .number(m)), ("sigma", .number(s)), ("max", .number(Double(cap)))])
        }
    }
}
