/// How the journal keeps credentials: `Authorization`, `Proxy-Authorization` and `Cookie` values
/// become a marker with a short fingerprint (`Bearer <redacted 1a2b3c4d>`, `sid=<redacted …>`),
/// so a page or a log that reads the journal learns no token, while a test can still tell two
/// tokens apart or check the one it expected (`StubRequest.header(_:is:)`). The scheme and cookie
/// names stay: they say what was sent without giving it away. `--journal-credentials` keeps them
/// verbatim.
public enum CredentialRedaction {
    /// The headers whose values are redacted, lower-case.
    public static let headerNames: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The marker kept for `secret`: its SHA-256's first 4 bytes in hex. Short on purpose: enough
    /// to tell tokens apart, too little to confirm a guess at a strong one.
    public static func marker(for secret: String) -> String {
        "<redacted \(SHA256.hex(secret).prefix(8))>"
    }

    /// `value` of the header `name` as the journal keeps it (unchanged for other headers and for
    /// values already redacted).
    public static func redacted(name: String, value: String) -> String {
        switch name.lowercased() {
        case "authorization", "proxy-authorization":
            // `Scheme credentials`: the scheme stays, the rest is the secret.
            guard let space = value.firstIndex(of: " ") else { return redactedPart(value) }
            return String(value[..<space]) + " " + redactedPart(String(value[value.index(after: space)...].drop { $0 == " " }))
        case "cookie":
            return value.split(separator: ";", omittingEmptySubsequences: false).map { pair -> String in
                let trimmed = pair.drop { $0 == " " }
                let lead = pair.count == trimmed.count ? "" : " "
                guard let equals = trimmed.firstIndex(of: "=") else { return lead + redactedPart(String(trimmed)) }
                return lead + String(trimmed[..<equals]) + "=" + redactedPart(String(trimmed[trimmed.index(after: equals)...]))
            }.joined(separator: ";")
        default:
            return value
        }
    }

    /// `request` with its credential headers redacted.
    public static func redacted(_ request: StubRequest) -> StubRequest {
        guard request.headers.contains(where: { headerNames.contains($0.name.lowercased()) }) else { return request }
        var copy = request
        copy.headers = request.headers.map { ($0.name, redacted(name: $0.name, value: $0.value)) }
        return copy
    }

    /// True when `kept` is what the journal keeps for `value` of header `name`, redacted or not.
    static func matches(kept: String, name: String, value: String) -> Bool {
        kept == value || kept == redacted(name: name, value: value)
    }

    /// A marker for `secret`, or `secret` itself when it already is one (records read back from
    /// a fleet's store were redacted by the replica that wrote them).
    private static func redactedPart(_ secret: String) -> String {
        if secret.isEmpty || isMarker(secret) { return secret }
        return marker(for: secret)
    }

    private static func isMarker(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        let prefix = Array("<redacted ".utf8)
        return bytes.count == prefix.count + 9 && bytes.starts(with: prefix) && bytes.last == UInt8(ascii: ">")
            && bytes[prefix.count..<(bytes.count - 1)].allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
    }
}

extension StubRequest {
    /// True when header `name` was sent as `value`: as the journal keeps it, verbatim or as the
    /// redacted marker of a credential (`CredentialRedaction`). For tests that check the token an
    /// app sent, whichever way the server journals it.
    public func header(_ name: String, is value: String) -> Bool {
        guard let kept = header(name) else { return false }
        return CredentialRedaction.matches(kept: kept, name: name, value: value)
    }
}
