/// A set of Unicode scalars a regex atom matches: ranges of code points and named classes
/// (Unicode general categories and a few binary properties), possibly negated.
struct RegexCharacterSet: Sendable, Equatable {
    /// A property a scalar has or not, for `\p{…}`.
    enum Property: Sendable, Equatable {
        /// One or more general categories (`L` is every letter category).
        case categories([Unicode.GeneralCategory])
        case any, ascii, alphabetic, whiteSpace, uppercase, lowercase

        func holds(for scalar: Unicode.Scalar) -> Bool {
            switch self {
            case .categories(let list): return list.contains(scalar.properties.generalCategory)
            case .any: return true
            case .ascii: return scalar.isASCII
            case .alphabetic: return scalar.properties.isAlphabetic
            case .whiteSpace: return scalar.properties.isWhitespace
            case .uppercase: return scalar.properties.isUppercase
            case .lowercase: return scalar.properties.isLowercase
            }
        }
    }

    /// Code point ranges, inclusive.
    var ranges: [ClosedRange<UInt32>] = []
    /// Properties, each matched as it is (`\p{L}`) or negated (`\P{L}`).
    var properties: [(property: Property, negated: Bool)] = []
    /// Classes inside the set that are themselves negated (`[\D]`, `[\W]`).
    var negatedRanges: [[ClosedRange<UInt32>]] = []
    /// The whole set negated (`[^…]`).
    var negated = false

    static func == (a: RegexCharacterSet, b: RegexCharacterSet) -> Bool {
        a.ranges == b.ranges && a.negated == b.negated && a.negatedRanges == b.negatedRanges
            && a.properties.count == b.properties.count && zip(a.properties, b.properties).allSatisfy { $0.property == $1.property && $0.negated == $1.negated }
    }

    /// True when `scalar` is in the set.
    func contains(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        var found = ranges.contains { $0.contains(v) }
        if !found { found = negatedRanges.contains { list in !list.contains { $0.contains(v) } } }
        if !found { found = properties.contains { $0.property.holds(for: scalar) != $0.negated } }
        return found != negated
    }

    /// `\d`: ASCII digits, as ECMA-262 defines it.
    static let digits: [ClosedRange<UInt32>] = [0x30...0x39]
    /// `\w`: ASCII letters, digits and `_`.
    static let word: [ClosedRange<UInt32>] = [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A]
    /// `\s`: ECMA-262's WhiteSpace and LineTerminator.
    static let space: [ClosedRange<UInt32>] = [0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
                                                0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF]
    /// Line terminators, which `.` does not match.
    static let lineTerminators: [ClosedRange<UInt32>] = [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029]

    static func isWord(_ scalar: Unicode.Scalar) -> Bool { word.contains { $0.contains(scalar.value) } }

    /// A scalar in the set, preferring letters and digits, for making sample strings.
    func sample() -> Unicode.Scalar? {
        let preferred: [UInt32] = Array(0x61...0x7A) + Array(0x30...0x39) + Array(0x41...0x5A) + [0x5F, 0x2D, 0x2E, 0x20] + Array(0x21...0x7E)
        for v in preferred { if let s = Unicode.Scalar(v), contains(s) { return s } }
        for range in ranges where !negated {
            for v in range.prefix(64) { if let s = Unicode.Scalar(v), contains(s) { return s } }
        }
        for v in UInt32(0xA0)..<0x3000 { if let s = Unicode.Scalar(v), contains(s) { return s } }
        return nil
    }
}
