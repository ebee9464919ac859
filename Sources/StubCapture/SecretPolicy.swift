#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Which names hold secrets, and what was taken out. A header, query parameter or JSON field is
/// secret when its name, lower-cased without `-` and `_`, contains one of `patterns`
/// (`Authorization`, `X-API-Key`, `access_token`, `client_secret`, `password` …), unless it is
/// kept on purpose. Secret values are never written: headers are dropped, fields become
/// `"REDACTED"`, query parameters leave `when`, and any other place a captured secret value
/// turns up (a body, a `Location`) has it replaced.
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

    static let descriptions: Set<String> = ["tokentype", "tokenexpiresin", "tokenexpiresat"]

    /// True when `pattern` (ASCII, no line breaks, so bytes and characters agree) is in `text`.
    static func contains(_ text: [UInt8], _ pattern: String.UTF8View) -> Bool {
        guard let first = pattern.first else { return true }
        guard text.count >= pattern.count else { return false }
        for start in 0...(text.count - pattern.count) where text[start] == first && text[start...].starts(with: pattern) { return true }
        return false
    }

    /// Cookie names that carry a login: sessions, tokens, CSRF keys, remember-me.
    static func isCredentialCookie(_ name: String, policy: SecretPolicy) -> Bool {
        let key = normalize(name)
        if policy.kept.contains(key) { return false }
        return policy.isSecret(name) || ["sess", "sid", "auth", "csrf", "xsrf", "jwt", "login", "remember", "key"].contains { key.contains($0) }
    }

    /// Long enough and mixed enough to be generated: 16+ characters with letters and digits.
    static func looksRandom(_ value: String) -> Bool {
        value.count >= 16 && value.contains(where: \.isLetter) && value.contains(where: \.isNumber)
    }

    static func normalize(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "-" && $0 != "_" })
    }
}

/// What an import or a recording redacted: counts by place and name, and the values seen, so
/// they can be scrubbed wherever else they appear.
package struct RedactionReport: Sendable {
    /// `header Authorization` → 12, `body field access_token` → 3, …
    package private(set) var counts: [String: Int] = [:]
    /// Secret values seen (at least 6 characters; shorter ones would scrub ordinary text).
    private(set) var values: Set<String> = [] { didSet { scrubber = nil } }
    /// The values indexed for `scrub`, made again after they change.
    private var scrubber: SecretScrubber?

    /// An empty report.
    package init() {}

    mutating func note(_ place: String, _ name: String, value: String) {
        counts["\(place) \(name)", default: 0] += 1
        remember(value)
    }

    /// A `Cookie` or `Set-Cookie` header left out: counted, and its credential values remembered.
    mutating func noteCookieHeader(_ place: String, _ name: String, value: String, policy: SecretPolicy) {
        counts["\(place) \(name)", default: 0] += 1
        noteCookies(value, policy: policy)
    }

    mutating func noteCount(_ key: String, _ count: Int) {
        counts[key, default: 0] += count
    }

    mutating func remember(_ value: String) {
        let trimmed = value.trimmingWhitespace()
        if trimmed.count >= 6 { values.insert(trimmed) }
        // `Bearer abc…`, `Basic …`: the credential alone may appear elsewhere.
        if let space = trimmed.firstIndex(of: " ") {
            let credential = String(trimmed[trimmed.index(after: space)...])
            if credential.count >= 6 { values.insert(credential) }
        }
    }

    /// A `Cookie` or `Set-Cookie` header: the values of cookies that look like credentials (by
    /// name: a session, a token, a CSRF key; or by value: long and random), which are scrubbed
    /// wherever they reappear. Other cookies (`theme=dark`, a user name) are ordinary text.
    mutating func noteCookies(_ header: String, policy: SecretPolicy) {
        for part in header.split(separator: ";") {
            guard let eq = part.firstIndex(of: "=") else { continue }
            let name = part[..<eq].trimmingWhitespace()
            let value = String(part[part.index(after: eq)...]).trimmingWhitespace()
            guard value.count >= 6 else { continue }
            if SecretPolicy.isCredentialCookie(name, policy: policy) || SecretPolicy.looksRandom(value) { values.insert(value) }
        }
    }

    /// How many secret values are known, to tell when a new one turned up.
    var secretCount: Int { values.count }

    /// Adds another report's counts and values.
    package mutating func merge(_ other: RedactionReport) {
        for (k, v) in other.counts { counts[k, default: 0] += v }
        values.formUnion(other.values)
    }

    /// `text` with every captured secret value replaced by `REDACTED`, and how many were replaced.
    mutating func scrub(_ text: String) -> (String, Int) {
        guard !values.isEmpty else { return (text, 0) }
        let scrubber = self.scrubber ?? SecretScrubber(values)
        self.scrubber = scrubber
        var out = text
        var replaced = 0
        // Longest first, so a token is not half-replaced by a shorter secret inside it. Only the
        // values the text may hold are searched for; a replacement makes new text, looked at again.
        var candidates = scrubber.candidates(in: out)[...]
        while let i = candidates.popFirst() {
            let value = scrubber.values[i]
            guard out.contains(value) else { continue }
            replaced += out.ranges(of: value).count
            out = out.replacing(value, with: "REDACTED")
            candidates = scrubber.candidates(in: out).drop { $0 <= i }
        }
        return (out, replaced)
    }

    /// One line per redacted name, sorted, for the import's report.
    package var lines: [String] {
        counts.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value) value\($0.value == 1 ? "" : "s")" }
    }
}
