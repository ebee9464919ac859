#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// What an import or a recording redacted: counts by place and name, and the values seen, so
/// they can be scrubbed wherever else they appear.
package struct RedactionReport: Sendable {
    /// `header Authorization` → 12, `body field access_token` → 3, …
    package private(set) var counts: [String: Int] = [:]
    /// Secret values seen (at least 6 characters; shorter ones would scrub ordinary text).
    private(set) var values: Set<String> = []
    /// The values indexed for `scrub`, made again after a new one is added (`add`): the same
    /// token on every request of a recording does not rebuild it per exchange.
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
        if trimmed.count >= 6 { add(trimmed) }
        // `Bearer abc…`, `Basic …`: the credential alone may appear elsewhere.
        if let space = trimmed.firstIndex(of: " ") {
            let credential = String(trimmed[trimmed.index(after: space)...])
            if credential.count >= 6 { add(credential) }
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
            if SecretPolicy.isCredentialCookie(name, policy: policy) || SecretPolicy.looksRandom(value) { add(value) }
        }
    }

    /// Remembers a secret value; the scrubber's index is made again only when it is new.
    private mutating func add(_ value: String) {
        if values.insert(value).inserted { scrubber = nil }
    }

    /// How many secret values are known, to tell when a new one turned up.
    var secretCount: Int { values.count }

    /// Adds another report's counts and values.
    package mutating func merge(_ other: RedactionReport) {
        for (k, v) in other.counts { counts[k, default: 0] += v }
        for value in other.values { add(value) }
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
