/// The few string operations the modules in the `stubd` binary need from full Foundation,
/// written here so that binary links FoundationEssentials only (no ICU).
extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    package func trimmingWhitespace() -> String {
        trimming { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    }

    /// The text without leading and trailing characters for which `drop` holds.
    package func trimming(_ drop: (Character) -> Bool) -> String {
        guard let first = firstIndex(where: { !drop($0) }), let last = lastIndex(where: { !drop($0) }) else { return "" }
        return String(self[first...last])
    }

    /// `%XX` escapes decoded, as `removingPercentEncoding` does: nil when an escape is broken or
    /// the bytes are not UTF-8.
    package func percentDecoded() -> String? {
        guard contains("%") else { return String(self) }
        var bytes: [UInt8] = []
        var rest = Array(utf8)[...]
        while let b = rest.popFirst() {
            guard b == UInt8(ascii: "%") else { bytes.append(b); continue }
            guard rest.count >= 2, let high = FormDecoding.hex(rest[rest.startIndex]), let low = FormDecoding.hex(rest[rest.startIndex + 1]) else { return nil }
            bytes.append(high << 4 | low)
            rest = rest.dropFirst(2)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    /// The text with every byte outside RFC 3986's unreserved set (letters, digits, `-._~`)
    /// written as `%XX`: safe as a query name or value whatever it holds.
    package func percentEncodedComponent() -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in utf8 {
            switch b {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(b)
            default:
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
