import StubCore

/// Re-indents a valid JSON document (two spaces, one member per line) token by token, so numbers
/// and strings keep their exact text (a parsed-and-printed 2^60 or `1.10` would change) and keys
/// keep their order, and replaces the values of secret-named members with `"REDACTED"`.
struct JSONRewriter {
    let policy: SecretPolicy
    /// Only a token-shaped string under a secret name is replaced (`SecretShape`); any other
    /// value, an object or array among them, stays, its own secret members replaced inside.
    var byShape = false

    /// The pretty document, and the secrets taken out of it.
    func rewrite(_ bytes: [UInt8], report: inout RedactionReport, place: String) -> [UInt8] {
        let tokens = JSONRewriter.tokens(bytes)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 4)
        var depth = 0
        // For each open container: is it an object, and is the next string in it a key.
        var stack: [(object: Bool, expectKey: Bool)] = []
        var pendingSecret: String?
        var index = 0
        func newline() {
            out.append(0x0A)
            out += [UInt8](repeating: 0x20, count: depth * 2)
        }
        while index < tokens.count {
            let token = tokens[index]
            if let name = pendingSecret, token != [UInt8(ascii: ":")] {
                pendingSecret = nil
                let text = token.first == UInt8(ascii: "\"") ? JSONRewriter.unquote(token) : nil
                if byShape, text.map({ !SecretShape.isToken($0) && !SecretShape.asked(name, policy) }) ?? true {
                    // Not a credential: written as it is, read again as any value.
                    continue
                }
                let end = JSONRewriter.endOfValue(tokens, from: index)
                let raw = tokens[index].first == UInt8(ascii: "\"") && end == index + 1 ? JSONRewriter.unquote(token) : ""
                report.note(place, name, value: raw)
                out += Array("\"REDACTED\"".utf8)
                index = end
                continue
            }
            switch token.first {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let closing: UInt8 = token.first == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                if index + 1 < tokens.count, tokens[index + 1].first == closing {
                    out += token + tokens[index + 1]
                    index += 2
                    continue
                }
                out += token
                stack.append((token.first == UInt8(ascii: "{"), token.first == UInt8(ascii: "{")))
                depth += 1
                newline()
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                _ = stack.popLast()
                newline()
                out += token
            case UInt8(ascii: ","):
                out += token
                if let last = stack.indices.last { stack[last].expectKey = stack[last].object }
                newline()
            case UInt8(ascii: ":"):
                out += Array(": ".utf8)
            default:
                out += token
                if let last = stack.indices.last, stack[last].expectKey {
                    stack[last].expectKey = false
                    let name = JSONRewriter.unquote(token)
                    if policy.isSecret(name) { pendingSecret = name }
                }
            }
            index += 1
        }
        out.append(0x0A)
        return out
    }

    /// The index after the value starting at `start` (a scalar, or a container to its close).
    static func endOfValue(_ tokens: [[UInt8]], from start: Int) -> Int {
        guard let first = tokens[start].first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return start + 1 }
        var depth = 0
        var index = start
        while index < tokens.count {
            switch tokens[index].first {
            case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                depth -= 1
                if depth == 0 { return index + 1 }
            default: break
            }
            index += 1
        }
        return tokens.count
    }

    /// The tokens of valid JSON: punctuation, strings with their quotes, and scalars, as bytes.
    static func tokens(_ bytes: [UInt8]) -> [[UInt8]] {
        var tokens: [[UInt8]] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case 0x20, 0x09, 0x0A, 0x0D:
                i += 1
            case UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: ":"), UInt8(ascii: ","):
                tokens.append([b])
                i += 1
            case UInt8(ascii: "\""):
                var j = i + 1
                while j < bytes.count, bytes[j] != UInt8(ascii: "\"") { j += bytes[j] == UInt8(ascii: "\\") ? 2 : 1 }
                tokens.append(Array(bytes[i...min(j, bytes.count - 1)]))
                i = j + 1
            default:
                var j = i
                while j < bytes.count, !" \t\r\n,:]}".utf8.contains(bytes[j]) { j += 1 }
                tokens.append(Array(bytes[i..<j]))
                i = j
            }
        }
        return tokens
    }

    /// A string token's text, escapes undone (through the core's parser), or its raw text.
    static func unquote(_ token: [UInt8]) -> String {
        if case .string(let s)? = try? JSONParser.parse(token) { return s }
        return String(decoding: token, as: UTF8.self)
    }
}
