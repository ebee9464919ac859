/// A `pattern` from a JSON Schema or OpenAPI document, compiled once and matched in linear time
/// with ECMA-262's meaning (which both specify): `\d`, `\w` and `\b` are ASCII, `\s` is
/// ECMA-262's white space, `.` stops at line terminators, and the input is Unicode code points.
/// A pattern that uses lookaround or backreferences is refused with the reason, not guessed at.
package struct ECMARegex: Sendable {
    /// The pattern as written.
    package let pattern: String
    let node: RegexNode
    let program: RegexProgram

    /// Compiles `pattern`, or throws why it cannot be used.
    package init(_ pattern: String) throws(RegexError) {
        self.pattern = pattern
        node = try RegexParser.parse(pattern)
        program = try RegexProgram(node)
    }

    /// True when the pattern matches somewhere in `text` (unanchored, as `pattern` is); nil when
    /// matching took more than `limit` steps (each step is one thread on one input scalar).
    package func matches(_ text: String, steps: inout Int, limit: Int = .max) -> Bool? {
        program.matches(Array(text.unicodeScalars), steps: &steps, limit: limit)
    }

    /// True when the pattern matches somewhere in `text`, without a step limit.
    package func matches(_ text: String) -> Bool {
        var steps = 0
        return matches(text, steps: &steps) ?? false
    }
}

/// Why a pattern cannot be used, for messages.
extension RegexError {
    /// `lookaround … is not supported … (at offset 3)`.
    package var reason: String { "\(message) (at character \(offset + 1))" }
}
