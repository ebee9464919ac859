/// Decoding of `application/x-www-form-urlencoded` text and percent-escapes.
package enum FormDecoding {
    /// Splits `a=1&b=x%20y` into decoded pairs; `+` means space, as browsers and Alamofire send it.
    package static func pairs(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { part in
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = decode(String(pieces[0]), plusIsSpace: true)
            let value = pieces.count > 1 ? decode(String(pieces[1]), plusIsSpace: true) : ""
            return (name, value)
        }
    }

    /// Percent-decodes `text`; malformed escapes are kept as written.
    package static func decode(_ text: String, plusIsSpace: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var it = Array(text.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "+") && plusIsSpace {
                bytes.append(0x20)
            } else if b == UInt8(ascii: "%"), it.count >= 2,
                      let hi = hex(it[it.startIndex]), let lo = hex(it[it.startIndex + 1]) {
                bytes.append(hi << 4 | lo)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The value of one hex digit, for percent-decoding here and in `PathDecoding`.
    package static func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
