/// Walks JSON text without building values: checks its syntax, finds an object's members by name
/// and a value at a path, and makes strings only of what is asked for. For requests read on every
/// call (a GraphQL body), where a `JSONValue` tree would be built and freed for a few fields.
package struct JSONScanner {
    let bytes: [UInt8]

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The range of the one value that fills `range` (whitespace around it allowed), or nil when
    /// it is not exactly one well-formed JSON value.
    package func value(in range: Range<Int>) -> Range<Int>? {
        let all = bytes
        var at = range.lowerBound
        JSONScanner.skipSpace(all, &at, range.upperBound)
        let start = at
        guard JSONScanner.skipValue(all, &at, range.upperBound, depth: 0) else { return nil }
        let end = at
        JSONScanner.skipSpace(all, &at, range.upperBound)
        return at == range.upperBound ? start..<end : nil
    }

    /// The members of the object at `range`: each name's range (quotes included) with its value's
    /// range; nil when the value there is not an object.
    package func members(of range: Range<Int>) -> [(name: Range<Int>, value: Range<Int>)]? {
        var found: [(name: Range<Int>, value: Range<Int>)] = []
        guard walkObject(from: range.lowerBound, { found.append(($0, $1)) }) != nil else { return nil }
        return found
    }

    /// The value of the member called `wanted` of the object at `range` (the first, if repeated).
    package func member(_ wanted: String, of range: Range<Int>) -> Range<Int>? {
        var found: Range<Int>?
        _ = walkObject(from: range.lowerBound) { name, value in
            if found == nil, self.name(name, matches: Substring(wanted).utf8) { found = value }
        }
        return found
    }

    /// Calls `visit` with each member's name range (quotes included) and value range of the
    /// object starting at `start`, allocating nothing; returns where the object ends, or nil when
    /// it is not a well-formed object.
    package func walkObject(from start: Int, _ visit: (_ name: Range<Int>, _ value: Range<Int>) -> Void) -> Int? {
        let all = bytes
        let end = all.count
        var at = start
        guard at < end, all[at] == UInt8(ascii: "{") else { return nil }
        at += 1
        JSONScanner.skipSpace(all, &at, end)
        if at < end && all[at] == UInt8(ascii: "}") { return at + 1 }
        while at < end {
            JSONScanner.skipSpace(all, &at, end)
            let keyStart = at
            guard JSONScanner.skipString(all, &at, end) else { return nil }
            let name = keyStart..<at
            JSONScanner.skipSpace(all, &at, end)
            guard at < end, all[at] == UInt8(ascii: ":") else { return nil }
            at += 1
            JSONScanner.skipSpace(all, &at, end)
            let valueStart = at
            guard JSONScanner.skipValue(all, &at, end, depth: 1) else { return nil }
            visit(name, valueStart..<at)
            JSONScanner.skipSpace(all, &at, end)
            guard at < end else { return nil }
            if all[at] == UInt8(ascii: "}") { return at + 1 }
            guard all[at] == UInt8(ascii: ",") else { return nil }
            at += 1
        }
        return nil
    }

    /// Whether the member name at `range` (quotes included, no escapes) is exactly `wanted`.
    package func name(_ range: Range<Int>, equals wanted: StaticString) -> Bool {
        let count = wanted.utf8CodeUnitCount
        guard range.count == count + 2 else { return false }
        let start = wanted.utf8Start
        var at = range.lowerBound + 1
        for i in 0..<count {
            if bytes[at] != start[i] { return false }
            at += 1
        }
        return true
    }

    /// The index of the first byte at or after `from` that is not white space.
    package func skippingSpace(from: Int) -> Int {
        let all = bytes
        var at = from
        JSONScanner.skipSpace(all, &at, all.count)
        return at
    }

    /// The elements' ranges of the array at `range`; nil when the value there is not an array.
    package func elements(of range: Range<Int>) -> [Range<Int>]? {
        let all = bytes
        var at = range.lowerBound
        guard at < range.upperBound, all[at] == UInt8(ascii: "[") else { return nil }
        at += 1
        var found: [Range<Int>] = []
        JSONScanner.skipSpace(all, &at, range.upperBound)
        if at < range.upperBound && all[at] == UInt8(ascii: "]") { return found }
        while at < range.upperBound {
            JSONScanner.skipSpace(all, &at, range.upperBound)
            let start = at
            guard JSONScanner.skipValue(all, &at, range.upperBound, depth: 1) else { return nil }
            found.append(start..<at)
            JSONScanner.skipSpace(all, &at, range.upperBound)
            guard at < range.upperBound else { return nil }
            if all[at] == UInt8(ascii: "]") { return found }
            guard all[at] == UInt8(ascii: ",") else { return nil }
            at += 1
        }
        return nil
    }

    /// What kind of value starts at `range` (its first byte).
    package func kind(of range: Range<Int>) -> UInt8? {
        range.isEmpty ? nil : bytes[range.lowerBound]
    }

    /// The string at `range` (quotes included), unescaped; nil when it is not a string.
    package func string(at range: Range<Int>) -> String? {
        guard range.count >= 2, bytes[range.lowerBound] == UInt8(ascii: "\"") else { return nil }
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        if !bytes[inner].contains(UInt8(ascii: "\\")) {
            return UTF8Text.string(bytes[inner])
        }
        guard case .string(let text)? = try? JSONParser.parse(Array(bytes[range])) else { return nil }
        return text
    }

    /// The value at a dotted path under `range` (object members by name, array elements by index):
    /// a string as its text, other scalars as written, objects and arrays as compact JSON. Walks
    /// the text once per step and allocates nothing until the value is found.
    package func text(atDotted path: String, in range: Range<Int>) -> String? {
        var current = range
        var remaining = path.utf8[...]
        while true {
            let dot = remaining.firstIndex(of: UInt8(ascii: "."))
            let key = remaining[..<(dot ?? remaining.endIndex)]
            switch kind(of: current) {
            case UInt8(ascii: "{"):
                var found: Range<Int>?
                _ = walkObject(from: current.lowerBound) { name, value in
                    if found == nil, self.name(name, matches: key) { found = value }
                }
                guard let next = found else { return nil }
                current = next
            case UInt8(ascii: "["):
                guard let index = Int(Substring(key)), let items = elements(of: current), items.indices.contains(index) else { return nil }
                current = items[index]
            default:
                return nil
            }
            guard let dot else { break }
            remaining = remaining[remaining.index(after: dot)...]
        }
        return text(of: current)
    }

    /// The value at `range` as text: a string unescaped, other scalars as written, objects and
    /// arrays as compact JSON; nil for null.
    package func text(of current: Range<Int>) -> String? {
        switch kind(of: current) {
        case UInt8(ascii: "\""): return string(at: current)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return (try? JSONParser.parse(Array(bytes[current])))?.serialized()
        case UInt8(ascii: "n"): return nil
        default: return String(decoding: bytes[current], as: UTF8.self)
        }
    }

    /// Whether the member name at `range` (quotes included) is `key`'s bytes; a name with escapes
    /// is unescaped first.
    private func name(_ range: Range<Int>, matches key: Substring.UTF8View) -> Bool {
        let inner = (range.lowerBound + 1)..<(range.upperBound - 1)
        guard inner.count == key.count || bytes[inner].contains(UInt8(ascii: "\\")) else { return false }
        if bytes[inner].contains(UInt8(ascii: "\\")) { return string(at: range).map { $0.utf8.elementsEqual(key) } ?? false }
        let all = bytes
        var i = inner.lowerBound
        for byte in key {
            if all[i] != byte { return false }
            i += 1
        }
        return true
    }
}
