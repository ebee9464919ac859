/// GraphQL's lexical grammar (spec, "Source Text"): punctuators, names, numbers, strings and block
/// strings, with their line and column; comments, commas and white space are ignored.
package struct GraphQLLexer {
    /// One token.
    package struct Token: Equatable, Sendable {
        package enum Kind: Equatable, Sendable {
            case punctuator(String)
            case name(String)
            case int(String)
            case float(String)
            case string(String)
            case end
        }

        package let kind: Kind
        package let line: Int
        package let column: Int
    }

    /// Why a document could not be read, and where.
    package struct Failure: Error, Equatable {
        package let message: String
        package let line: Int
        package let column: Int

        package init(message: String, line: Int, column: Int) {
            self.message = message
            self.line = line
            self.column = column
        }
    }

    private let bytes: [UInt8]
    private var at = 0
    private var line = 1
    private var lineStart = 0

    package init(_ text: String) {
        bytes = Array(text.utf8)
    }

    /// The next token (`.end` at the end), or nil where the text is not GraphQL: for a reader
    /// that stops early instead of tokenizing a whole document.
    package mutating func nextToken() -> Token? {
        try? next()
    }

    /// Every token, ending with `.end`.
    package static func tokens(_ text: String) -> Result<[Token], Failure> {
        var lexer = GraphQLLexer(text)
        var out: [Token] = []
        do {
            while true {
                let token = try lexer.next()
                out.append(token)
                if token.kind == .end { return .success(out) }
            }
        } catch {
            return .failure(error)
        }
    }

    private mutating func next() throws(Failure) -> Token {
        skipIgnored()
        let column = at - lineStart + 1
        guard at < bytes.count else { return Token(kind: .end, line: line, column: column) }
        let b = bytes[at]
        func token(_ kind: Token.Kind) -> Token { Token(kind: kind, line: line, column: column) }
        if b == UInt8(ascii: "."), at + 2 < bytes.count, bytes[at + 1] == b, bytes[at + 2] == b {
            at += 3
            return token(.punctuator("..."))
        }
        if "!$&()[]{}:=@|".utf8.contains(b) {
            at += 1
            return token(.punctuator(String(UnicodeScalar(b))))
        }
        if b == UInt8(ascii: "_") || isLetter(b) {
            let start = at
            while at < bytes.count && (bytes[at] == UInt8(ascii: "_") || isLetter(bytes[at]) || isDigit(bytes[at])) { at += 1 }
            return token(.name(String(decoding: bytes[start..<at], as: UTF8.self)))
        }
        if b == UInt8(ascii: "-") || isDigit(b) { return try number(column) }
        if b == UInt8(ascii: "\"") {
            let startLine = line
            let text = try string()
            return Token(kind: .string(text), line: startLine, column: column)
        }
        throw fail("unexpected character \(String(UnicodeScalar(b)).debugDescription)")
    }

    private mutating func skipIgnored() {
        while at < bytes.count {
            let b = bytes[at]
            if b == 0x0A || b == 0x0D {
                at += (b == 0x0D && at + 1 < bytes.count && bytes[at + 1] == 0x0A) ? 2 : 1
                line += 1
                lineStart = at
            } else if b == 0x20 || b == 0x09 || b == UInt8(ascii: ",") {
                at += 1
            } else if b == 0xEF, at + 2 < bytes.count, bytes[at + 1] == 0xBB, bytes[at + 2] == 0xBF {
                at += 3
            } else if b == UInt8(ascii: "#") {
                while at < bytes.count && bytes[at] != 0x0A && bytes[at] != 0x0D { at += 1 }
            } else {
                return
            }
        }
    }

    private mutating func number(_ column: Int) throws(Failure) -> Token {
        let start = at
        var isFloat = false
        if bytes[at] == UInt8(ascii: "-") { at += 1 }
        guard digits() > 0 else { throw fail("expected a digit") }
        if at < bytes.count && bytes[at] == UInt8(ascii: ".") {
            at += 1
            isFloat = true
            guard digits() > 0 else { throw fail("expected a digit after '.'") }
        }
        if at < bytes.count && (bytes[at] == UInt8(ascii: "e") || bytes[at] == UInt8(ascii: "E")) {
            at += 1
            isFloat = true
            if at < bytes.count && (bytes[at] == UInt8(ascii: "+") || bytes[at] == UInt8(ascii: "-")) { at += 1 }
            guard digits() > 0 else { throw fail("expected a digit in the exponent") }
        }
        let text = String(decoding: bytes[start..<at], as: UTF8.self)
        return Token(kind: isFloat ? .float(text) : .int(text), line: line, column: column)
    }

    private mutating func digits() -> Int {
        let start = at
        while at < bytes.count && isDigit(bytes[at]) { at += 1 }
        return at - start
    }

    /// A string or a block string, its escapes kept as written (only names and types matter here).
    private mutating func string() throws(Failure) -> String {
        let block = at + 2 < bytes.count && bytes[at + 1] == UInt8(ascii: "\"") && bytes[at + 2] == UInt8(ascii: "\"")
        at += block ? 3 : 1
        let start = at
        while at < bytes.count {
            let b = bytes[at]
            if block {
                if b == UInt8(ascii: "\\"), at + 3 < bytes.count, bytes[at + 1] == UInt8(ascii: "\""), bytes[at + 2] == UInt8(ascii: "\""),
                   bytes[at + 3] == UInt8(ascii: "\"") { at += 4; continue }
                if b == UInt8(ascii: "\""), at + 2 < bytes.count, bytes[at + 1] == b, bytes[at + 2] == b {
                    at += 3
                    return String(decoding: bytes[start..<(at - 3)], as: UTF8.self)
                }
                if b == 0x0A { line += 1; lineStart = at + 1 }
                at += 1
            } else {
                if b == UInt8(ascii: "\"") {
                    at += 1
                    return String(decoding: bytes[start..<(at - 1)], as: UTF8.self)
                }
                if b == 0x0A || b == 0x0D { throw fail("unterminated string") }
                at += b == UInt8(ascii: "\\") ? 2 : 1
            }
        }
        throw fail("unterminated string")
    }

    private func fail(_ message: String) -> Failure {
        Failure(message: message, line: line, column: at - lineStart + 1)
    }

    private func isLetter(_ b: UInt8) -> Bool { (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) }
    private func isDigit(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) }
}
