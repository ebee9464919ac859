/// A parsed JSON document that keeps object keys in file order.
///
/// Stub files rely on order (the first variant whose `when` holds wins), which Foundation's
/// `JSONSerialization` does not keep, so the core parses JSON itself.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(JSONNumber)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// A computed number.
    package static func number(_ value: Double) -> JSONValue { .number(JSONNumber(value)) }

    /// Structural equality; objects compare keys in order.
    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The value for `key` when this is an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The value when this is a number.
    package var numberValue: Double? {
        if case .number(let n) = self { return n.value }
        return nil
    }

    /// A short name of the kind of value, for error messages ("found a number").
    package var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// The string form of a scalar, as a `when` condition compares it ("true", "42", "x").
    package var scalarText: String? {
        switch self {
        case .string(let s): return s
        case .bool(let b): return b ? "true" : "false"
        // A plain integer literal as written (exact beyond 2^53); other forms as their value.
        case .number(let n):
            if let literal = n.literal, !literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }) { return literal }
            return JSONNumber.format(n.value)
        case .null, .array, .object: return nil
        }
    }
}

extension JSONValue {
    /// Compact JSON text of this value.
    package func serialized(pretty: Bool = false) -> String {
        var out = ""
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(to out: inout String, pretty: Bool, indent: Int) {
        let newline = pretty ? "\n" : ""
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let closePad = pretty ? String(repeating: "  ", count: indent) : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n.text
        case .string(let s): JSONValue.writeEscaped(s, to: &out)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + newline
            for (i, item) in items.enumerated() {
                out += pad
                item.write(to: &out, pretty: pretty, indent: indent + 1)
                if i < items.count - 1 { out += "," }
                out += newline
            }
            out += closePad + "]"
        case .object(let members):
            if members.isEmpty { out += "{}"; return }
            out += "{" + newline
            for (i, member) in members.enumerated() {
                out += pad
                JSONValue.writeEscaped(member.key, to: &out)
                out += pretty ? ": " : ":"
                member.value.write(to: &out, pretty: pretty, indent: indent + 1)
                if i < members.count - 1 { out += "," }
                out += newline
            }
            out += closePad + "}"
        }
    }

    /// The string as a JSON literal: the bytes writer's escapes (`JSONValue+Bytes.swift`), the
    /// one place they are written.
    static func writeEscaped(_ s: String, to out: inout String) {
        var bytes: [UInt8] = []
        writeEscaped(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }
}
