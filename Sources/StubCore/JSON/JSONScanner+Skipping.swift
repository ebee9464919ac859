/// The byte-level walking behind `JSONScanner`: each function moves `at` past one piece of JSON
/// text in `all` (up to `end`) and says whether it was well formed.
extension JSONScanner {
    static func skipSpace(_ all: [UInt8], _ at: inout Int, _ end: Int) {
        while at < end, all[at] == 0x20 || all[at] == 0x0A || all[at] == 0x0D || all[at] == 0x09 { at += 1 }
    }

    static func skipString(_ all: [UInt8], _ at: inout Int, _ end: Int) -> Bool {
        guard at < end, all[at] == UInt8(ascii: "\"") else { return false }
        at += 1
        while at < end {
            // The common bytes, in a tight loop: anything but a quote, a backslash or a control.
            var b = all[at]
            while b != UInt8(ascii: "\"") && b != UInt8(ascii: "\\") && b >= 0x20 && b < 0x80 {
                at += 1
                guard at < end else { return false }
                b = all[at]
            }
            if b >= 0x80 {
                // Strings must be UTF-8, as JSONParser requires: one sequence checked at a time.
                guard let length = JSONScanner.utf8SequenceLength(all, at, end) else { return false }
                at += length
                continue
            }
            if b == UInt8(ascii: "\"") {
                at += 1
                return true
            }
            if b < 0x20 { return false }
            if b == UInt8(ascii: "\\") {
                guard at + 1 < end else { return false }
                let e = all[at + 1]
                if e == UInt8(ascii: "u") {
                    guard at + 5 < end, (2...5).allSatisfy({ all[at + $0].isHexDigit }) else { return false }
                    at += 6
                    continue
                }
                guard "\"\\/bfnrt".utf8.contains(e) else { return false }
                at += 2
                continue
            }
            at += 1
        }
        return false
    }

    /// The length of the well-formed UTF-8 sequence starting at `at` (RFC 3629: no overlong
    /// forms, no surrogates, nothing past U+10FFFF), or nil.
    static func utf8SequenceLength(_ all: [UInt8], _ at: Int, _ end: Int) -> Int? {
        let lead = all[at]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return nil
        }
        guard end - at >= length, (low...high).contains(all[at + 1]) else { return nil }
        for i in 2..<max(2, length) where !(0x80...0xBF).contains(all[at + i]) { return nil }
        return length
    }

    static func skipValue(_ all: [UInt8], _ at: inout Int, _ end: Int, depth: Int) -> Bool {
        guard at < end, depth < JSONScanner.maxDepth else { return false }
        switch all[at] {
        case UInt8(ascii: "\""):
            return JSONScanner.skipString(all, &at, end)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let close = all[at] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
            let isObject = close == UInt8(ascii: "}")
            at += 1
            JSONScanner.skipSpace(all, &at, end)
            if at < end && all[at] == close {
                at += 1
                return true
            }
            while at < end {
                JSONScanner.skipSpace(all, &at, end)
                if isObject {
                    guard JSONScanner.skipString(all, &at, end) else { return false }
                    JSONScanner.skipSpace(all, &at, end)
                    guard at < end, all[at] == UInt8(ascii: ":") else { return false }
                    at += 1
                    JSONScanner.skipSpace(all, &at, end)
                }
                guard JSONScanner.skipValue(all, &at, end, depth: depth + 1) else { return false }
                JSONScanner.skipSpace(all, &at, end)
                guard at < end else { return false }
                if all[at] == close {
                    at += 1
                    return true
                }
                guard all[at] == UInt8(ascii: ",") else { return false }
                at += 1
            }
            return false
        case UInt8(ascii: "t"): return JSONScanner.skipWord("true", all, &at, end)
        case UInt8(ascii: "f"): return JSONScanner.skipWord("false", all, &at, end)
        case UInt8(ascii: "n"): return JSONScanner.skipWord("null", all, &at, end)
        default:
            return JSONScanner.skipNumber(all, &at, end)
        }
    }

    static func skipWord(_ word: StaticString, _ all: [UInt8], _ at: inout Int, _ end: Int) -> Bool {
        let count = word.utf8CodeUnitCount
        guard end - at >= count else { return false }
        for i in 0..<count where all[at + i] != word.utf8Start[i] { return false }
        at += count
        return true
    }

    /// RFC 8259's number: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    static func skipNumber(_ all: [UInt8], _ at: inout Int, _ end: Int) -> Bool {
        func digits() -> Int {
            let start = at
            while at < end, all[at] >= 0x30 && all[at] <= 0x39 { at += 1 }
            return at - start
        }
        if at < end && all[at] == UInt8(ascii: "-") { at += 1 }
        guard at < end else { return false }
        let start = at
        if all[at] == UInt8(ascii: "0") { at += 1 } else if digits() == 0 { return false }
        if at < end && all[at] == UInt8(ascii: ".") {
            at += 1
            guard digits() > 0 else { return false }
        }
        var exponent = false
        if at < end && (all[at] == UInt8(ascii: "e") || all[at] == UInt8(ascii: "E")) {
            at += 1
            exponent = true
            if at < end && (all[at] == UInt8(ascii: "+") || all[at] == UInt8(ascii: "-")) { at += 1 }
            guard digits() > 0 else { return false }
        }
        // A number too large for a Double is refused, as JSONParser refuses it; only long ones or
        // ones with an exponent can be.
        if exponent || at - start > 300 {
            guard let value = Double(String(decoding: all[start..<at], as: UTF8.self)), value.isFinite else {
                return false
            }
        }
        return true
    }

    /// Deeper values are refused, as `JSONParser` refuses them.
    static let maxDepth = 512
}

private extension UInt8 {
    var isHexDigit: Bool { (0x30...0x39).contains(self) || (0x41...0x46).contains(self) || (0x61...0x66).contains(self) }
}
