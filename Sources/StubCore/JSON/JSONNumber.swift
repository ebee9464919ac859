/// A JSON number: its value, and the literal it was read from.
///
/// A `Double` cannot hold every integer an API sends (`9007199254740993`, 64-bit ids), and
/// printing one back changes its text (`9.223372036854776e+18`). Keeping the literal means a
/// number read from a document is written out exactly as it was.
package struct JSONNumber: Sendable, Hashable {
    /// The value, rounded to the nearest `Double`.
    package let value: Double
    /// The literal as written in the source (valid JSON number text), or nil for computed numbers.
    package let literal: String?

    /// A computed number.
    package init(_ value: Double) {
        self.value = value
        literal = nil
    }

    /// A number read from `text`, which must be a JSON number literal; nil otherwise.
    package init?(literal text: String) {
        guard JSONNumber.isLiteral(text.utf8), let value = Double(text), value.isFinite else { return nil }
        self.value = value
        literal = text
    }

    init(value: Double, checkedLiteral: String) {
        self.value = value
        literal = checkedLiteral
    }

    /// The text to write: the literal when there is one, else the shortest form of the value.
    package var text: String { literal ?? JSONNumber.format(value) }

    /// True when the value is a whole number.
    package var isInteger: Bool {
        guard value.rounded() == value else { return false }
        // Beyond 2^53 every Double is whole; the literal says whether the number was.
        guard isBigInteger, let literal, let dot = literal.firstIndex(of: ".") else { return true }
        return literal[literal.index(after: dot)...].allSatisfy { $0 == "0" }
    }

    /// Equal values; integers beyond a `Double`'s precision compare by their literals.
    package static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool {
        guard lhs.value == rhs.value else { return false }
        guard let a = lhs.exactInteger, let b = rhs.exactInteger else { return true }
        return a == b
    }

    /// The digits of a whole number beyond 2^53 as its literal has them (`9007199254740993` for
    /// `9007199254740993.0`), where the `Double` has lost them; nil otherwise.
    package var exactInteger: String? {
        guard isBigInteger, isInteger, let literal else { return nil }
        return literal.firstIndex(of: ".").map { String(literal[..<$0]) } ?? literal
    }

    /// Hashes the value only, so numbers equal by value hash alike.
    package func hash(into hasher: inout Hasher) { hasher.combine(value) }

    /// Whole and beyond 2^53, where two literals can round to one `Double`.
    private var isBigInteger: Bool { abs(value) >= 9_007_199_254_740_992 && literal.map { !$0.contains("e") && !$0.contains("E") } == true }

    /// `1` for 1.0, `1.5`, `1e+20` for larger values.
    package static func format(_ n: Double) -> String {
        if n.rounded() == n && abs(n) < 1e15 { return String(Int64(n)) }
        return String(n)
    }

    /// RFC 8259's number grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    static func isLiteral<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        var i = bytes.startIndex
        func at(_ i: Bytes.Index) -> UInt8? { i < bytes.endIndex ? bytes[i] : nil }
        func digits(_ i: inout Bytes.Index) -> Int {
            var n = 0
            while let b = at(i), b >= 0x30, b <= 0x39 { i = bytes.index(after: i); n += 1 }
            return n
        }
        if at(i) == UInt8(ascii: "-") { i = bytes.index(after: i) }
        let first = at(i)
        let whole = digits(&i)
        guard whole > 0, whole == 1 || first != UInt8(ascii: "0") else { return false }
        if at(i) == UInt8(ascii: ".") {
            i = bytes.index(after: i)
            guard digits(&i) > 0 else { return false }
        }
        if at(i) == UInt8(ascii: "e") || at(i) == UInt8(ascii: "E") {
            i = bytes.index(after: i)
            if at(i) == UInt8(ascii: "+") || at(i) == UInt8(ascii: "-") { i = bytes.index(after: i) }
            guard digits(&i) > 0 else { return false }
        }
        return i == bytes.endIndex
    }
}
