/// Replaces, in a JSON text, the string values of secret-named members at any depth with a
/// marker, leaving every other byte as it was: numbers keep their digits, keys their order, the
/// text its layout. Read token by token, so a body cut short (the journal keeps the first bytes)
/// is redacted as far as it goes. A secret is a string: a number or an object under a secret name
/// (`max_tokens: 100`) stays.
enum JSONSecrets {
    /// `bytes` with secret values replaced by `marker(value)`; nil when nothing was replaced.
    static func redacted(_ bytes: [UInt8], policy: SecretPolicy, marker: (String) -> String) -> [UInt8]? {
        var out: [UInt8] = []
        var copied = 0
        // For each open container: an object (and whether its next string is a key) or an array.
        var open: [(object: Bool, expectsKey: Bool)] = []
        var secretValueNext = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "{"):
                open.append((true, true))
                secretValueNext = false
            case UInt8(ascii: "["):
                open.append((false, false))
                secretValueNext = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = open.popLast()
            case UInt8(ascii: ","):
                if let last = open.indices.last, open[last].object { open[last].expectsKey = true }
            case UInt8(ascii: "\""):
                let end = JSONSecrets.endOfString(bytes, from: index)
                if let last = open.indices.last, open[last].expectsKey {
                    open[last].expectsKey = false
                    secretValueNext = JSONSecrets.decoded(bytes, index, end).map(policy.isSecret) ?? false
                } else if secretValueNext, end < bytes.count, let value = JSONSecrets.decoded(bytes, index, end) {
                    secretValueNext = false
                    let replacement = marker(value)
                    if replacement != value {
                        out += bytes[copied...index]
                        out += JSONSecrets.escaped(replacement)
                        copied = end
                    }
                }
                index = end + 1
                continue
            case UInt8(ascii: ":"), 0x20, 0x09, 0x0A, 0x0D:
                break
            default:
                // A number, true, false or null: not a secret, whatever its name.
                secretValueNext = false
            }
            index += 1
        }
        guard copied > 0 else { return nil }
        out += bytes[copied...]
        return out
    }

    /// The index of the quote that closes the string opening at `start`, or `bytes.count` when
    /// the text ends first.
    static func endOfString(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start + 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index
            default: index += 1
            }
        }
        return bytes.count
    }

    /// The string between the quotes at `start` and `end`, escapes decoded; nil when unterminated
    /// or not a valid JSON string.
    static func decoded(_ bytes: [UInt8], _ start: Int, _ end: Int) -> String? {
        guard end < bytes.count else { return nil }
        let inner = bytes[(start + 1)..<end]
        guard inner.contains(UInt8(ascii: "\\")) else { return String(validating: inner, as: UTF8.self) }
        guard case .string(let text)? = try? JSONParser.parse(Array(bytes[start...end])) else { return nil }
        return text
    }

    /// `text` as the inside of a JSON string.
    static func escaped(_ text: String) -> [UInt8] {
        let quoted = JSONValue.string(text).serialized(pretty: false)
        return Array(quoted.utf8.dropFirst().dropLast())
    }
}
