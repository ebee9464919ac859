/// Parses RFC 8259 JSON from bytes into a `JSONValue`, reporting errors by line and column.
package struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    /// Parses a complete document; trailing content other than whitespace is an error.
    package static func parse(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        // A UTF-8 byte order mark is tolerated: some editors write one.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { parser.index = 3 }
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        if parser.index < bytes.count { throw parser.error("expected end of document, found \(parser.describeCurrent())") }
        return value
    }

    /// Parses a string of JSON text.
    package static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    /// Members an object is searched for a duplicate key one by one; past this many, a set.
    static let linearKeyCheck = 32

    private func error(_ message: String) -> JSONSyntaxError {
        var line = 1, column = 1
        var i = 0
        while i < min(index, bytes.count) {
            if bytes[i] == UInt8(ascii: "\n") { line += 1; column = 1 } else if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        return JSONSyntaxError(line: line, column: column, message: message)
    }

    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let b = bytes[index]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else { throw error("expected a value, found end of file") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func expectWord(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard index + w.count <= bytes.count, Array(bytes[index..<index + w.count]) == w else {
            throw error("expected a value, found \(describeCurrent())")
        }
        index += w.count
    }

    private mutating func enter() throws(JSONSyntaxError) {
        depth += 1
        if depth > 512 { throw error("nesting deeper than 512 levels") }
    }

    private mutating func parseObject() throws(JSONSyntaxError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        // Duplicates are looked for in the members themselves while an object is small, in a set
        // of its keys beyond that: a route's thousands of variants must not cost keys² compares.
        var keys = Set<String>()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a quoted key, found \(describeCurrent())")
            }
            let keyStart = index
            let key = try parseString()
            if members.count == JSONParser.linearKeyCheck { keys = Set(members.lazy.map(\.key)) }
            if members.count < JSONParser.linearKeyCheck ? members.contains(where: { $0.key == key }) : !keys.insert(key).inserted {
                index = keyStart
                throw error("duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw error("expected ':' after key \"\(key)\", found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            members.append((key, try parseValue()))
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or '}', found end of file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
            throw error("expected ',' or '}', found \(describeCurrent())")
        }
    }

    private mutating func parseArray() throws(JSONSyntaxError) -> JSONValue {
        try enter(); defer { depth -= 1 }
        index += 1
        var items: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
        while true {
            skipWhitespace()
            items.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("expected ',' or ']', found end of file") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(items) }
            throw error("expected ',' or ']', found \(describeCurrent())")
        }
    }

    /// The string of `bytes[range]` if it is UTF-8.
    private static func string(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        UTF8Text.string(bytes[range])
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1
        // Most strings hold no escape: they are made from their bytes in one step.
        let start = index
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                guard let s = JSONParser.string(bytes, start..<index) else { throw error("string is not valid UTF-8") }
                index += 1
                return s
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            index += 1
        }
        var out = Array(bytes[start..<index])
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                index += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            }
            if b < 0x20 { throw error("control character in string (escape it)") }
            if b == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                let e = bytes[index]
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "\\"), bytes[index + 2] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(scalar)).utf8))
                default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
                index += 1
                continue
            }
            out.append(b)
            index += 1
        }
        throw error("unterminated string")
    }

    /// Reads four hex digits after `\u`, leaving `index` on the last one.
    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        guard index + 4 < bytes.count else { throw error("expected four hex digits after \\u") }
        var value: UInt32 = 0
        for i in 1...4 {
            guard let digit = hexValue(bytes[index + i]) else { index += i; throw error("expected a hex digit in \\u escape") }
            value = value << 4 | digit
        }
        index += 4
        return value
    }

    private func hexValue(_ b: UInt8) -> UInt32? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return UInt32(b - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(b - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(b - UInt8(ascii: "A") + 10)
        default: return nil
        }
    }

    private mutating func parseNumber() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.index
            while p.index < p.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(p.bytes[p.index]) { p.index += 1 }
            return p.index - s
        }
        let intStart = index
        let intDigits = digits(&self)
        if intDigits == 0 { throw error("expected a digit, found \(describeCurrent())") }
        if intDigits > 1 && bytes[intStart] == UInt8(ascii: "0") { index = intStart; throw error("leading zeros are not allowed in numbers") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if digits(&self) == 0 { throw error("expected a digit after '.', found \(describeCurrent())") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            if digits(&self) == 0 { throw error("expected a digit in the exponent, found \(describeCurrent())") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let n = Double(text), n.isFinite else { throw error("number \(text) is out of range") }
        return .number(JSONNumber(value: n, checkedLiteral: text))
    }
}
