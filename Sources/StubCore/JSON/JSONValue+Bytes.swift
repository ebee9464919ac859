/// Compact JSON as UTF-8 bytes, written straight into one growing buffer: the form a fleet's
/// journal sends for every request, where building a `String` piece by piece cost more than
/// the request itself. The text is exactly `serialized()`'s.
extension JSONValue {
    /// Compact JSON bytes of this value.
    package func serializedBytes() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        write(to: &out)
        return out
    }

    private func write(to out: inout [UInt8]) {
        switch self {
        case .null: out += "null".utf8
        case .bool(let b): out += (b ? "true" : "false").utf8
        case .number(let n): out += n.text.utf8
        case .string(let s): JSONValue.writeEscaped(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeEscaped(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The escapes of every JSON text stubd writes: quote, backslash, \n, \r, \t, other controls as \u00XX.
    static func writeEscaped(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Native strings hand out their bytes in place; others are made contiguous once.
        var s = s
        s.withUTF8 { escape($0, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private static func escape(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        var clean = 0
        for i in 0..<bytes.count {
            let byte = bytes[i]
            guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
            out.append(contentsOf: bytes[clean..<i])
            clean = i + 1
            switch byte {
            case UInt8(ascii: "\""): out += "\\\"".utf8
            case UInt8(ascii: "\\"): out += "\\\\".utf8
            case 0x0A: out += "\\n".utf8
            case 0x0D: out += "\\r".utf8
            case 0x09: out += "\\t".utf8
            default:
                let hex = Array("0123456789abcdef".utf8)
                out += [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        out.append(contentsOf: bytes[clean...])
    }
}
