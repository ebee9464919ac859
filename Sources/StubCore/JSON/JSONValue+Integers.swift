/// Whole numbers read from JSON a user or another program wrote. `Int(someDouble)` stops the
/// process on a value beyond `Int` (`1e19`) and silently drops a fraction (`99.5` becomes 99),
/// so every such read goes through here and an unfit value is the caller's named problem.
extension JSONValue {
    /// The number as an `Int` when it is whole and within `range`; nil for any other value (not
    /// a number, a fraction, a number outside `range`).
    package func wholeNumber(in range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = self, case let n = number.value,
              n >= Double(range.lowerBound), n <= Double(range.upperBound), let whole = Int(exactly: n), range.contains(whole) else { return nil }
        return whole
    }

    /// What a problem says was found instead: the kind, and a scalar's text (`a number 1e19`,
    /// `a string "200"`, `null`).
    package var foundDescription: String {
        switch self {
        case .number(let n): return "a number \(n.text)"
        case .string(let s): return "a string \"\(s.count > 40 ? String(s.prefix(40)) + "…" : s)\""
        default: return kindDescription
        }
    }
}
