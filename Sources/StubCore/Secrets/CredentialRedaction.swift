#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the journal keeps secrets (`SecretPolicy`): `Authorization`, `Proxy-Authorization` and
/// `Cookie` values, every other secret-named header (`X-Api-Key`, `X-Auth-Token`), secret-named
/// query values (`token=`), and the string values of secret-named JSON members at any depth
/// (`password`, `newPassword`, GraphQL variables) and form fields become a marker with a short
/// fingerprint (`Bearer <redacted 1a2b3c4d>`, `sid=<redacted …>`, `"<redacted …>"`). A page, a
/// log, a contract or a fleet's store that reads the journal learns no secret, while a test can
/// still tell two apart or check the one it expected (`StubRequest.header(_:is:)`,
/// `query(_:is:)`, `bodyField(_:is:)`). The scheme, cookie names and every other byte stay: they
/// say what was sent without giving it away. `--journal-credentials` keeps everything verbatim.
public enum CredentialRedaction {
    /// The headers whose values are always redacted, lower-case; any other header is redacted
    /// when its name is secret (`SecretPolicy`).
    public static let headerNames: Set<String> = ["authorization", "proxy-authorization", "cookie"]

    /// The names the journal treats as secret.
    static let policy = SecretPolicy()

    /// The marker kept for `secret`: its SHA-256's first 4 bytes in hex. Short on purpose: enough
    /// to tell tokens apart, too little to confirm a guess at a strong one.
    public static func marker(for secret: String) -> String {
        "<redacted \(SHA256.hex(secret).prefix(8))>"
    }

    /// `value` of the header `name` as the journal keeps it (unchanged for headers that are not
    /// secret and for values already redacted).
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
            return policy.isSecret(name) ? redactedPart(value) : value
        }
    }

    /// `request` with its secrets redacted: headers, query values and body fields.
    public static func redacted(_ request: StubRequest) -> StubRequest {
        var copy = request
        if request.headers.contains(where: { isSecretHeader($0.name) }) {
            copy.headers = request.headers.map { ($0.name, redacted(name: $0.name, value: $0.value)) }
        }
        if request.query.contains(where: { policy.isSecret($0.name) }) {
            copy.query = request.query.map { ($0.name, policy.isSecret($0.name) ? redactedPart($0.value) : $0.value) }
        }
        if !request.body.isEmpty, let body = BodySecrets.redacted(request.body, contentType: request.header("Content-Type"), policy: policy,
                                                                   marker: redactedPart) {
            copy.body = body
        }
        return copy
    }

    /// The bytes of a message (a WebSocket text message, a JSON document) with the string values
    /// of its secret-named members redacted; nil when there is nothing to redact.
    package static func redactedJSON(_ bytes: [UInt8]) -> [UInt8]? {
        JSONSecrets.redacted(bytes, policy: policy, marker: redactedPart)
    }

    static func isSecretHeader(_ name: String) -> Bool {
        headerNames.contains(name.lowercased()) || policy.isSecret(name)
    }

    /// True when `kept` is what the journal keeps for `value` under `name`, redacted or not.
    static func matches(kept: String, name: String, value: String) -> Bool {
        kept == value || kept == redacted(name: name, value: value)
    }

    /// True when `kept` is `value` or its marker.
    static func matches(kept: String, value: String) -> Bool {
        kept == value || kept == redactedPart(value)
    }

    /// A marker for `secret`, or `secret` itself when it already is one (records read back from
    /// a fleet's store were redacted by the replica that wrote them).
    static func redactedPart(_ secret: String) -> String {
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
