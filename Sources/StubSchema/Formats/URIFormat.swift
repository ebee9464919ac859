/// RFC 3986 URIs (`uri`: with a scheme) and URI references (`uri-reference`: relative too),
/// checked character by character: percent escapes complete, ports numeric, IP literals valid.
enum URIFormat {
    static let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)
    static let subDelims = Set("!$&'()*+,;=".utf8)

    static func holds(_ s: String, reference: Bool) -> Bool {
        var rest = Substring(s)
        var hasScheme = false
        if let colon = rest.firstIndex(of: ":"), !rest[..<colon].contains(where: { $0 == "/" || $0 == "?" || $0 == "#" }) {
            let scheme = rest[..<colon].utf8
            guard let first = scheme.first, StringFormats.isAlpha(first),
                  scheme.allSatisfy({ StringFormats.isAlpha($0) || StringFormats.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }) else { return false }
            hasScheme = true
            rest = rest[rest.index(after: colon)...]
        }
        guard hasScheme || reference else { return false }
        if let hash = rest.firstIndex(of: "#") {
            guard chars(rest[rest.index(after: hash)...], extra: "/?:@") else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            guard chars(rest[rest.index(after: question)...], extra: "/?:@") else { return false }
            rest = rest[..<question]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            guard authority(rest[..<end]) else { return false }
            rest = rest[end...]
        } else if !hasScheme, let firstSegment = rest.split(separator: "/", omittingEmptySubsequences: false).first, firstSegment.contains(":") {
            return false
        }
        return chars(rest, extra: "/:@")
    }

    /// Unreserved, sub-delims, `extra` and complete `%XX` escapes only.
    static func chars(_ s: Substring, extra: String) -> Bool {
        let allowed = Set(extra.utf8)
        var bytes = s.utf8[...]
        while let b = bytes.first {
            if b == UInt8(ascii: "%") {
                guard bytes.count >= 3, StringFormats.isHex(bytes.dropFirst().first!), StringFormats.isHex(bytes.dropFirst(2).first!) else { return false }
                bytes = bytes.dropFirst(3)
                continue
            }
            guard unreserved.contains(b) || subDelims.contains(b) || allowed.contains(b) else { return false }
            bytes = bytes.dropFirst()
        }
        return true
    }

    static func authority(_ s: Substring) -> Bool {
        var host = s
        if let at = host.lastIndex(of: "@") {
            guard chars(host[..<at], extra: ":") else { return false }
            host = host[host.index(after: at)...]
        }
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let literal = host[host.index(after: host.startIndex)..<close]
            let port = host[host.index(after: close)...]
            guard literal.hasPrefix("v") || literal.hasPrefix("V") ? chars(literal, extra: ":") : StringFormats.ipv6(literal) else { return false }
            return port.isEmpty || (port.hasPrefix(":") && port.dropFirst().utf8.allSatisfy(StringFormats.isDigit))
        }
        if let colon = host.lastIndex(of: ":") {
            guard host[host.index(after: colon)...].utf8.allSatisfy(StringFormats.isDigit) else { return false }
            host = host[..<colon]
        }
        return chars(host, extra: "")
    }
}
