/// Parses ECMA-262 pattern syntax (as JSON Schema and OpenAPI specify `pattern`) over Unicode
/// scalars, with the `u` flag's meaning of `.`, classes and `\u{…}`, and Annex B's lenient
/// escapes of punctuation (`\-`, `\/`). Lookaround and backreferences are refused: they cannot
/// run in linear time.
struct RegexParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0
    /// Named groups, for `\k<name>` (refused) and duplicates.
    private var groups = 0

    init(_ pattern: String) { scalars = Array(pattern.unicodeScalars) }

    static func parse(_ pattern: String) throws(RegexError) -> RegexNode {
        var parser = RegexParser(pattern)
        let node = try parser.disjunction()
        if parser.index < parser.scalars.count { throw parser.error("unmatched ')'") }
        return node
    }

    private func error(_ message: String, unsupported: Bool = false) -> RegexError { RegexError(message: message, offset: index, unsupported: unsupported) }
    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    private mutating func eat(_ c: Unicode.Scalar) -> Bool {
        guard current == c else { return false }
        index += 1
        return true
    }

    private mutating func disjunction() throws(RegexError) -> RegexNode {
        var branches = [try alternative()]
        while eat("|") { branches.append(try alternative()) }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func alternative() throws(RegexError) -> RegexNode {
        var parts: [RegexNode] = []
        while let c = current, c != "|", c != ")" {
            let atom = try term()
            parts.append(try quantified(atom))
        }
        return parts.isEmpty ? .empty : parts.count == 1 ? parts[0] : .sequence(parts)
    }

    private mutating func term() throws(RegexError) -> RegexNode {
        guard let c = current else { throw error("unexpected end") }
        index += 1
        switch c {
        case "^": return .start
        case "$": return .end
        case ".": return .set(RegexCharacterSet(ranges: RegexCharacterSet.lineTerminators, negated: true))
        case "(": return try group()
        case "[": return .set(try characterClass())
        case "\\": return try atomEscape()
        case "*", "+", "?": throw error("nothing to repeat before '\(c)'")
        case "{":
            // Annex B: a brace that does not start a quantifier is itself.
            index -= 1
            if quantifierBounds() != nil { throw error("nothing to repeat before '{'") }
            index += 1
            return .literal(c)
        case ")": throw error("unmatched ')'")
        default: return .literal(c)
        }
    }

    private mutating func group() throws(RegexError) -> RegexNode {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 256 else { throw error("groups nested deeper than 256 levels") }
        if eat("?") {
            if eat(":") {
                // A non-capturing group.
            } else if current == "=" || current == "!" || (current == "<" && (peek(1) == "=" || peek(1) == "!")) {
                throw error("lookaround (?=, ?!, ?<=, ?<!) is not supported by the linear-time matcher", unsupported: true)
            } else if eat("<") {
                var name = ""
                while let c = current, c != ">" { name.unicodeScalars.append(c); index += 1 }
                guard eat(">"), !name.isEmpty else { throw error("expected a group name and '>'") }
            } else {
                throw error("unknown group syntax (?\(current.map { String($0) } ?? "")")
            }
        }
        groups += 1
        let inner = try disjunction()
        guard eat(")") else { throw error("missing ')'") }
        return inner
    }

    private mutating func quantified(_ atom: RegexNode) throws(RegexError) -> RegexNode {
        var bounds: (min: Int, max: Int?)
        switch current {
        case "*": index += 1; bounds = (0, nil)
        case "+": index += 1; bounds = (1, nil)
        case "?": index += 1; bounds = (0, 1)
        case "{":
            guard let b = quantifierBounds() else { return atom }
            bounds = b
        default: return atom
        }
        switch atom {
        case .start, .end, .wordBoundary: throw error("nothing to repeat")
        default: break
        }
        _ = eat("?") // lazy: the same strings match
        if let max = bounds.max, max < bounds.min { throw error("numbers out of order in {} quantifier") }
        return .repetition(atom, min: bounds.min, max: bounds.max)
    }

    /// `{n}`, `{n,}`, `{n,m}` at the current position (consumed), or nil (nothing consumed).
    private mutating func quantifierBounds() -> (min: Int, max: Int?)? {
        let start = index
        guard eat("{") else { return nil }
        func number(_ p: inout RegexParser) -> Int? {
            var value: Int?
            while let c = p.current, let d = c.properties.numericType == .decimal && c.isASCII ? Int(String(c)) : nil {
                value = min((value ?? 0) * 10 + d, 100_000)
                p.index += 1
            }
            return value
        }
        guard let low = number(&self) else { index = start; return nil }
        var high: Int? = low
        if eat(",") { high = number(&self) }
        guard eat("}") else { index = start; return nil }
        return (low, high)
    }

    private mutating func atomEscape() throws(RegexError) -> RegexNode {
        guard let c = current else { throw error("'\\' at the end of the pattern") }
        switch c {
        case "b": index += 1; return .wordBoundary(true)
        case "B": index += 1; return .wordBoundary(false)
        case "1"..."9": throw error("backreferences (\\\(c)) are not supported by the linear-time matcher", unsupported: true)
        case "k": throw error("named backreferences (\\k) are not supported by the linear-time matcher", unsupported: true)
        default:
            if let set = try classEscape() { return .set(set) }
            return .literal(try characterEscape(inClass: false))
        }
    }

    /// `\d \D \s \S \w \W \p{…} \P{…}` (consumed), or nil.
    mutating func classEscape() throws(RegexError) -> RegexCharacterSet? {
        guard let c = current else { return nil }
        let ranges: [ClosedRange<UInt32>]
        switch c {
        case "d", "D": ranges = RegexCharacterSet.digits
        case "s", "S": ranges = RegexCharacterSet.space
        case "w", "W": ranges = RegexCharacterSet.word
        case "p", "P":
            index += 1
            guard eat("{") else { throw error("expected '{' after \\\(c)") }
            var name = ""
            while let n = current, n != "}" { name.unicodeScalars.append(n); index += 1 }
            guard eat("}") else { throw error("missing '}' in \\\(c){…}") }
            guard let property = RegexUnicodeProperty.named(name) else { throw error("unknown or unsupported Unicode property \\\(c){\(name)}") }
            return RegexCharacterSet(properties: [(property, c == "P")])
        default: return nil
        }
        index += 1
        let upper = c.properties.isUppercase
        return upper ? RegexCharacterSet(ranges: ranges, negated: true) : RegexCharacterSet(ranges: ranges)
    }

    /// One escaped scalar after `\` (consumed).
    mutating func characterEscape(inClass: Bool) throws(RegexError) -> Unicode.Scalar {
        guard let c = current else { throw error("'\\' at the end of the pattern") }
        index += 1
        switch c {
        case "t": return "\t"
        case "n": return "\n"
        case "v": return "\u{0B}"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "b" where inClass: return "\u{08}"
        case "0" where !(current.map { ("0"..."9").contains($0) } ?? false): return "\u{0}"
        case "c":
            guard let letter = current, letter.isASCII, letter.properties.isAlphabetic else { throw error("\\c must be followed by a letter") }
            index += 1
            return Unicode.Scalar(letter.value % 32)!
        case "x":
            guard let value = hex(count: 2) else { throw error("\\x must be followed by two hex digits") }
            return Unicode.Scalar(value)!
        case "u":
            if eat("{") {
                var value: UInt32 = 0
                var digits = 0
                while let d = current, let h = d.hexDigitValue { value = value * 16 + UInt32(h); digits += 1; index += 1; if value > 0x10FFFF { break } }
                guard digits > 0, eat("}"), let scalar = Unicode.Scalar(value) else { throw error("invalid \\u{…} escape") }
                return scalar
            }
            guard let high = hex(count: 4) else { throw error("\\u must be followed by four hex digits") }
            if (0xD800..<0xDC00).contains(high), current == "\\", peek(1) == "u" {
                let save = index
                index += 2
                if let low = hex(count: 4), (0xDC00..<0xE000).contains(low) {
                    return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
                }
                index = save
            }
            guard let scalar = Unicode.Scalar(high) else { throw error("\\u escape of a lone surrogate") }
            return scalar
        default:
            // Identity escapes: punctuation stands for itself (Annex B also allows `\-` and `\/`).
            if !(c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c))) { return c }
            throw error("unknown escape \\\(c)")
        }
    }

    private mutating func hex(count: Int) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<count {
            guard let d = peek(offset), let h = d.hexDigitValue else { return nil }
            value = value * 16 + UInt32(h)
        }
        index += count
        return value
    }

    private mutating func characterClass() throws(RegexError) -> RegexCharacterSet {
        var set = RegexCharacterSet()
        if eat("^") { set.negated = true }
        while current != nil, current != "]" {
            let low = try classAtom()
            if current == "-", peek(1) != "]", peek(1) != nil {
                index += 1
                let high = try classAtom()
                guard case .scalar(let a) = low, case .scalar(let b) = high else {
                    // Annex B: a class escape next to '-' makes the '-' literal.
                    add(low, to: &set); add(.scalar("-"), to: &set); add(high, to: &set)
                    continue
                }
                guard a.value <= b.value else { throw error("range out of order in character class") }
                set.ranges.append(a.value...b.value)
            } else {
                add(low, to: &set)
            }
        }
        guard eat("]") else { throw error("missing ']'") }
        return set
    }

    private enum ClassAtom {
        case scalar(Unicode.Scalar)
        case set(RegexCharacterSet)
    }

    private mutating func classAtom() throws(RegexError) -> ClassAtom {
        guard let c = current else { throw error("missing ']'") }
        index += 1
        guard c == "\\" else { return .scalar(c) }
        if current == "-" { index += 1; return .scalar("-") }
        if let set = try classEscape() { return .set(set) }
        return .scalar(try characterEscape(inClass: true))
    }

    private func add(_ atom: ClassAtom, to set: inout RegexCharacterSet) {
        switch atom {
        case .scalar(let s): set.ranges.append(s.value...s.value)
        case .set(let inner):
            if inner.negated { set.negatedRanges.append(inner.ranges) } else { set.ranges += inner.ranges }
            set.properties += inner.properties
        }
    }
}

/// A pattern that cannot be used, and where reading stopped.
package struct RegexError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    package let message: String
    /// Where reading stopped, in Unicode scalars from the start.
    package let offset: Int
    /// True for valid ECMA-262 the matcher cannot run (lookaround, backreferences).
    package var unsupported = false
    package var description: String { message }
}

extension Unicode.Scalar {
    var hexDigitValue: Int? {
        switch value {
        case 0x30...0x39: return Int(value - 0x30)
        case 0x41...0x46: return Int(value - 0x41 + 10)
        case 0x61...0x66: return Int(value - 0x61 + 10)
        default: return nil
        }
    }
}
