import StubCore

/// JSON Schema's equality: numbers by value (`1` equals `1.0`), strings and keys by code point
/// (`"a\u0308"` is not `"ä"`), objects regardless of key order.
package enum JSONEquality {
    /// True when `a` and `b` are the same JSON by JSON Schema's rules.
    package static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.string(x), .string(y)): return x.unicodeScalars.elementsEqual(y.unicodeScalars)
        case let (.number(x), .number(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && x.allSatisfy { m in y.contains { ExactKey($0.key) == ExactKey(m.key) && same($0.value, m.value) } }
        case let (.array(x), .array(y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        default: return a == b
        }
    }

    /// The indices of the first two equal items, or nil; hashing keeps it linear.
    static func firstDuplicate(_ items: [JSONValue]) -> (Int, Int)? {
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let key = canonical(item)
            if let earlier = seen[key] { return (earlier, index) }
            seen[key] = index
        }
        return nil
    }

    /// A text that two values share exactly when `same` holds for them.
    static func canonical(_ value: JSONValue) -> String {
        var out = ""
        write(value, to: &out)
        return out
    }

    private static func write(_ value: JSONValue, to out: inout String) {
        switch value {
        case .null: out += "n"
        case .bool(let b): out += b ? "t" : "f"
        case .number(let n):
            out += "#"
            out += n.exactInteger ?? JSONNumber.format(n.value)
        case .string(let s):
            out += "s"
            for scalar in s.unicodeScalars { out += String(scalar.value, radix: 16) + "," }
            out += ";"
        case .array(let items):
            out += "["
            for item in items { write(item, to: &out); out += "," }
            out += "]"
        case .object(let members):
            out += "{"
            let sorted = members.sorted { $0.key.unicodeScalars.lexicographicallyPrecedes($1.key.unicodeScalars) { $0.value < $1.value } }
            for member in sorted {
                write(.string(member.key), to: &out)
                out += ":"
                write(member.value, to: &out)
                out += ","
            }
            out += "}"
        }
    }
}
