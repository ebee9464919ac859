/// The string formats JSON Schema and OpenAPI name, each checked by its RFC: `date-time`, `date`
/// and `time` (RFC 3339, leap seconds included), `email` (RFC 5321 mailboxes), `hostname` (RFC
/// 1123, with IDNA A-labels decoded and checked), `ipv4`, `ipv6` (RFC 4291 text forms), `uri`
/// and `uri-reference` (RFC 3986), and `uuid` (RFC 4122's text form). Other formats pass.
package enum StringFormats {
    /// True when `s` is a valid `format`, or the format is not one checked.
    package static func holds(_ format: String, _ s: String) -> Bool {
        switch format {
        case "date-time": return DateTimeFormat.dateTime(s)
        case "date": return DateTimeFormat.date(Array(s.utf8)[...])
        case "time": return DateTimeFormat.time(s)
        case "email": return email(s)
        case "hostname": return HostnameFormat.holds(s)
        case "ipv4": return ipv4(Substring(s))
        case "ipv6": return ipv6(Substring(s))
        case "uri": return URIFormat.holds(s, reference: false)
        case "uri-reference": return URIFormat.holds(s, reference: true)
        case "uuid": return uuid(s)
        case "regex": return regex(s)
        default: return true
        }
    }

    /// The formats `holds` checks.
    package static let checked: Set<String> = ["date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid", "regex"]

    /// ECMA-262 syntax: lookaround and backreferences are valid, though the matcher refuses them.
    static func regex(_ s: String) -> Bool {
        do { _ = try RegexParser.parse(s); return true } catch { return error.unsupported }
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isHex(_ b: UInt8) -> Bool { isDigit(b) || (b >= 0x41 && b <= 0x46) || (b >= 0x61 && b <= 0x66) }
    static func isAlpha(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }

    static func uuid(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard bytes.count == 36 else { return false }
        for (i, b) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(i) { if b != UInt8(ascii: "-") { return false } } else if !isHex(b) { return false }
        }
        return true
    }

    /// Four decimal octets, 0 to 255, without leading zeros.
    static func ipv4(_ s: Substring) -> Bool {
        let parts = s.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 4 else { return false }
        return parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy(isDigit), part.count == 1 || part.first != UInt8(ascii: "0") else { return false }
            return Int(String(decoding: part, as: UTF8.self))! <= 255
        }
    }

    /// RFC 4291 §2.2: eight groups of one to four hex digits, one `::`, an IPv4 tail.
    static func ipv6(_ s: Substring) -> Bool {
        guard !s.isEmpty, s.utf8.allSatisfy({ isHex($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") }) else { return false }
        var text = String(s)
        var groups = 0
        if let lastColon = text.lastIndex(of: ":"), text[text.index(after: lastColon)...].contains(".") {
            guard ipv4(text[text.index(after: lastColon)...]) else { return false }
            text = String(text[...lastColon]) + "0:0"
        }
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return false }
        func groupsOf(_ part: String) -> Int? {
            if part.isEmpty { return 0 }
            let items = part.split(separator: ":", omittingEmptySubsequences: false)
            guard items.allSatisfy({ (1...4).contains($0.count) }) else { return nil }
            return items.count
        }
        guard let first = groupsOf(halves[0]) else { return false }
        groups = first
        if halves.count == 2 {
            guard let second = groupsOf(halves[1]) else { return false }
            return groups + second <= 7
        }
        return groups == 8
    }

    /// RFC 5321 `Mailbox`: a dot-string or quoted local part, then a domain or an address literal.
    static func email(_ s: String) -> Bool {
        guard let at = s.lastIndex(of: "@") else { return false }
        let local = s[..<at], domain = s[s.index(after: at)...]
        guard !local.isEmpty, !domain.isEmpty, local.utf8.count <= 64 else { return false }
        let localOK: Bool
        if local.hasPrefix("\""), local.hasSuffix("\""), local.count >= 2 {
            var escaped = false
            localOK = local.dropFirst().dropLast().utf8.allSatisfy { b in
                if escaped { escaped = false; return b >= 32 && b <= 126 }
                if b == UInt8(ascii: "\\") { escaped = true; return true }
                return b == 32 || b == 33 || (b >= 35 && b <= 91) || (b >= 93 && b <= 126)
            } && !escaped
        } else {
            let atext = Set("!#$%&'*+-/=?^_`{|}~".utf8)
            localOK = local.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).allSatisfy { atom in
                !atom.isEmpty && atom.allSatisfy { isAlpha($0) || isDigit($0) || atext.contains($0) }
            }
        }
        guard localOK else { return false }
        if domain.hasPrefix("["), domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            if literal.lowercased().hasPrefix("ipv6:") { return ipv6(literal.dropFirst(5)) }
            return ipv4(literal)
        }
        return HostnameFormat.holds(String(domain))
    }
}
