/// A parsed ECMA-262 regular expression, as much of it as a linear-time matcher can run.
indirect enum RegexNode: Sendable {
    /// Matches the empty string.
    case empty
    /// One scalar.
    case literal(Unicode.Scalar)
    /// One scalar from a set (`[a-z]`, `\d`, `.`).
    case set(RegexCharacterSet)
    /// `^`: the start of the input.
    case start
    /// `$`: the end of the input.
    case end
    /// `\b` (true) or `\B` (false).
    case wordBoundary(Bool)
    /// Each part in turn.
    case sequence([RegexNode])
    /// One of the branches.
    case alternation([RegexNode])
    /// `min` to `max` (nil: unbounded) repetitions.
    case repetition(RegexNode, min: Int, max: Int?)

    /// How many program instructions the node compiles to, to refuse huge expansions early.
    var size: Int {
        switch self {
        case .empty: return 0
        case .literal, .set, .start, .end, .wordBoundary: return 1
        case .sequence(let parts): return parts.reduce(0) { $0 + $1.size }
        case .alternation(let branches): return branches.reduce(0) { $0 + $1.size + 2 }
        case .repetition(let node, let min, let max):
            let one = node.size + 2
            return one * Swift.max(min, 1) + one * Swift.max((max ?? min + 1) - min, 1)
        }
    }
}
