import StubCore

/// Reads YAML (1.1, through libyaml's event parser) into the core's `JSONValue`. Plain scalars
/// are typed the way OpenAPI documents expect: `null`/`~`, `true`/`false`, integers and
/// decimals (their text kept exactly when it is JSON's); quoted scalars are strings. Anchors,
/// aliases and `<<` merge keys are followed.
///
/// Every input is bounded, so a hostile document costs little: nesting depth, and the nodes that
/// aliases and merges add (a "billion laughs" document of a few hundred bytes is refused at once,
/// not expanded). Lines are not recorded while reading; `line(of:in:)` finds one when a message
/// needs it.
struct YAMLReader {
    /// How much a document may ask for.
    struct Limits {
        /// Mappings and sequences inside each other.
        var depth = 512
        /// Nodes that aliases and merge keys add, counted as if copied out.
        var aliasNodes = 1_000_000
    }

    /// A problem: the line and what is wrong.
    struct Problem: Error {
        let line: Int
        let message: String
        /// True when the document is valid YAML that asks for more than the limits allow.
        var overLimit = false
    }

    /// The first document in `bytes`.
    static func read(_ bytes: [UInt8], limits: Limits = Limits()) throws(Problem) -> JSONValue {
        let events = YAMLEvents(bytes)
        var builder = Builder(limits: limits)
        do {
            while true {
                let event = try events.next()
                if case .documentEnd = event { break }
                try builder.take(event, line: events.line)
                if builder.root != nil { break }
            }
        } catch let error as YAMLEvents.SyntaxError {
            throw Problem(line: error.line, message: error.message)
        } catch let error as Problem {
            throw error
        } catch {
            throw Problem(line: events.line, message: "\(error)")
        }
        return builder.root ?? .null
    }

    /// The 1-based line where the value at JSON pointer `pointer` starts, found by reading the
    /// events again (only for messages, so reading never keeps a line per value).
    static func line(of pointer: String, in bytes: [UInt8]) -> Int? {
        let target = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String($0).replacing("~1", with: "/").replacing("~0", with: "~")
        }
        let events = YAMLEvents(bytes)
        // The open containers: a mapping's pending key, or a sequence's next index; and the
        // tokens of the pointer to the innermost one.
        var open: [(mapping: Bool, key: String?, index: Int)] = []
        var path: [String] = []
        func token() -> String? {
            guard let top = open.last else { return nil }
            return top.mapping ? top.key ?? "" : String(top.index)
        }
        func advance() {
            guard let top = open.last else { return }
            open[open.count - 1] = top.mapping ? (true, nil, 0) : (false, nil, top.index + 1)
        }
        func isKey() -> Bool { open.last.map { $0.mapping && $0.key == nil } ?? false }
        while let event = try? events.next() {
            switch event {
            case .documentEnd:
                return nil
            case .scalar(let text, _, _, _) where isKey():
                open[open.count - 1].key = text
            case .alias where isKey():
                open[open.count - 1].key = ""
            case .scalar, .alias:
                if (token().map { path + [$0] } ?? []) == target { return events.line }
                advance()
            case .mappingStart, .sequenceStart:
                let here = token().map { path + [$0] } ?? []
                if here == target { return events.line }
                if !open.isEmpty { path = here }
                if case .mappingStart = event { open.append((true, nil, 0)) } else { open.append((false, nil, 0)) }
            case .end:
                open.removeLast()
                if !open.isEmpty {
                    path.removeLast()
                    advance()
                }
            }
        }
        return nil
    }

    /// A plain scalar's value: null, a boolean, a number, or the text.
    static func typed(_ text: String) -> JSONValue {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        default: break
        }
        guard let first = text.utf8.first, first == UInt8(ascii: "-") || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
                || (first >= 0x30 && first <= 0x39) else { return .string(text) }
        if let exact = JSONNumber(literal: text) { return .number(exact) }
        // YAML's other decimal forms (`+1`, `.5`, `1.`, `007`): the value, written the JSON way.
        guard YAMLReader.isDecimal(text), let n = Double(text), n.isFinite else { return .string(text) }
        return .number(n)
    }

    /// `[-+]? ( [0-9]+ (. [0-9]*)? | . [0-9]+ ) ([eE] [-+]? [0-9]+)?`.
    static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        let isDigit = { (b: UInt8) in b >= 0x30 && b <= 0x39 }
        let whole = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(whole)
        var fraction = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fraction)
        }
        guard whole + fraction > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let digits = bytes.prefix(while: isDigit).count
            guard digits > 0 else { return false }
            bytes = bytes.dropFirst(digits)
        }
        return bytes.isEmpty
    }
}
