/// Which names hold secrets: the one policy for everything stubd writes out (the journal and
/// what reads it: the admin API, the dashboard, the access log, Pact export, the fleet's store;
/// the WebSocket conversation record; and the stubs that imports and recordings write). A
/// header, query parameter, JSON member (at any depth: GraphQL variables too) or form field is
/// secret when its name, lower-cased without `-` and `_`, contains one of `patterns`
/// (`Authorization`, `X-API-Key`, `X-Auth-Token`, `access_token`, `client_secret`, `password`,
/// `oldPassword` …), unless it is kept on purpose. What becomes of a secret value is the
/// writer's: a marker with a fingerprint in the journal (`CredentialRedaction`), `"REDACTED"`
/// or a dropped header in imported stubs.
package struct SecretPolicy: Sendable {
    /// Name fragments that mark a secret.
    package private(set) var patterns: [String] = ["authorization", "cookie", "token", "password", "passwd", "secret", "apikey", "sessionid", "signature"]
    /// Names (normalized) kept on purpose with `--keep`.
    package private(set) var kept: Set<String> = []
    /// Names (normalized) added with `--redact`, matched whole.
    package private(set) var extra: Set<String> = []

    /// The default policy.
    package init() {}

    /// Adds a name to redact (`--redact`).
    package mutating func redact(_ name: String) { extra.insert(SecretPolicy.normalize(name)) }

    /// Keeps a name that would be redacted (`--keep`).
    package mutating func keep(_ name: String) { kept.insert(SecretPolicy.normalize(name)) }

    /// True when values under `name` must not be written.
    package func isSecret(_ name: String) -> Bool {
        let key = SecretPolicy.normalize(name)
        if kept.contains(key) { return false }
        if extra.contains(key) { return true }
        // Names that hold a secret's description, not the secret.
        if SecretPolicy.descriptions.contains(key) { return false }
        // An ASCII name is searched byte by byte: the generic search builds a table for each
        // call, and an import asks this of every field of every body. Others keep the search by
        // characters.
        let bytes = Array(key.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return patterns.contains { key.contains($0) } }
        return patterns.contains { SecretPolicy.contains(bytes, $0.utf8) }
    }

    package static let descriptions: Set<String> = ["tokentype", "tokenexpiresin", "tokenexpiresat"]

    /// True when `pattern` (ASCII, no line breaks, so bytes and characters agree) is in `text`.
    package static func contains(_ text: [UInt8], _ pattern: String.UTF8View) -> Bool {
        guard let first = pattern.first else { return true }
        guard text.count >= pattern.count else { return false }
        for start in 0...(text.count - pattern.count) where text[start] == first && text[start...].starts(with: pattern) { return true }
        return false
    }

    /// Cookie names that carry a login: sessions, tokens, CSRF keys, remember-me.
    package static func isCredentialCookie(_ name: String, policy: SecretPolicy) -> Bool {
        let key = normalize(name)
        if policy.kept.contains(key) { return false }
        return policy.isSecret(name) || ["sess", "sid", "auth", "csrf", "xsrf", "jwt", "login", "remember", "key"].contains { key.contains($0) }
    }

    /// Long enough and mixed enough to be generated: 16+ characters with letters and digits.
    package static func looksRandom(_ value: String) -> Bool {
        value.count >= 16 && value.contains(where: \.isLetter) && value.contains(where: \.isNumber)
    }

    package static func normalize(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
    }
}
