/// Just enough of GraphQL's lexical grammar to find the operations of an executable document:
/// names, punctuators, strings and block strings skipped whole, comments and commas ignored.
package enum GraphQLDocument {
    /// The name of the first named operation (`query GetUser`, `mutation CreateUser`); nil for a
    /// document whose operations are all anonymous (`{ me { id } }`).
    package static func firstOperationName(in document: String) -> String? {
        operations(in: document).lazy.compactMap(\.name).first
    }

    /// Every operation definition at the top level: its kind (`query`, `mutation`,
    /// `subscription`, or `query` for the `{ … }` shorthand) and its name, if any.
    package static func operations(in document: String) -> [(kind: String, name: String?)] {
        let tokens = tokenize(Array(document.utf8))
        var found: [(kind: String, name: String?)] = []
        var depth = 0, parens = 0
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token {
            case .punctuator(UInt8(ascii: "(")):
                parens += 1
            case .punctuator(UInt8(ascii: ")")):
                parens = max(0, parens - 1)
            case .punctuator(UInt8(ascii: "{")):
                if depth == 0 && parens == 0 && (index == 0 || tokens[index - 1] == .punctuator(UInt8(ascii: "}"))) { found.append(("query", nil)) }
                depth += 1
            case .punctuator(UInt8(ascii: "}")):
                depth = max(0, depth - 1)
            case .name(let word) where depth == 0 && parens == 0 && (index == 0 || tokens[index - 1] != .punctuator(UInt8(ascii: "$")))
                && ["query", "mutation", "subscription"].contains(word):
                var name: String?
                if index + 1 < tokens.count, case .name(let next) = tokens[index + 1] { name = next }
                found.append((word, name))
            default:
                break
            }
            index += 1
        }
        return found
    }

    enum Token: Equatable {
        case name(String)
        case punctuator(UInt8)
        case other
    }

    /// The document's tokens; strings become `.other`, comments and commas disappear.
    static func tokenize(_ bytes: [UInt8]) -> [Token] {
        var tokens: [Token] = []
        var at = 0
        func isNameStart(_ b: UInt8) -> Bool { b == UInt8(ascii: "_") || (b | 0x20 >= UInt8(ascii: "a") && b | 0x20 <= UInt8(ascii: "z")) }
        func isNameByte(_ b: UInt8) -> Bool { isNameStart(b) || (b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) }
        while at < bytes.count {
            let b = bytes[at]
            if b == UInt8(ascii: "#") {
                while at < bytes.count && bytes[at] != 0x0A && bytes[at] != 0x0D { at += 1 }
            } else if b == UInt8(ascii: "\"") {
                let block = at + 2 < bytes.count && bytes[at + 1] == b && bytes[at + 2] == b
                at += block ? 3 : 1
                while at < bytes.count {
                    if bytes[at] == UInt8(ascii: "\\") { at += 2; continue }
                    if block {
                        if at + 2 < bytes.count && bytes[at] == b && bytes[at + 1] == b && bytes[at + 2] == b { at += 3; break }
                    } else if bytes[at] == b || bytes[at] == 0x0A {
                        at += 1
                        break
                    }
                    at += 1
                }
                tokens.append(.other)
            } else if isNameStart(b) {
                let start = at
                while at < bytes.count && isNameByte(bytes[at]) { at += 1 }
                tokens.append(.name(String(decoding: bytes[start..<at], as: UTF8.self)))
            } else if "{}()[]:=@$!|&".utf8.contains(b) {
                tokens.append(.punctuator(b))
                at += 1
            } else if b == UInt8(ascii: ",") || b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0xEF || b == 0xBB || b == 0xBF {
                at += 1
            } else {
                // Numbers, spreads and anything else: one token each, never a name.
                tokens.append(.other)
                at += 1
            }
        }
        return tokens
    }
}
