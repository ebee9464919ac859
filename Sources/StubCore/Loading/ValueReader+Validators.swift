#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The cache validators a route or variant may give (`etag`, `lastModified`), read into the
/// header values they become.
extension ValueReader {
    /// `"auto"` (the tag is made from the body), a quoted entity tag (`"\"v1\""`, `"W/\"v1\""`),
    /// or a bare one (`"v1"`), which is quoted.
    func entityTag(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        if text == "auto" { return text }
        let opaque = text.hasPrefix("W/") ? String(text.dropFirst(2)) : text
        let inner = opaque.hasPrefix("\"") && opaque.hasSuffix("\"") && opaque.count >= 2 ? String(opaque.dropFirst().dropLast()) : opaque
        // RFC 9110 §8.8.3: any visible character but a double quote.
        guard inner.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value != 0x22 && $0.value != 0x7F }) else {
            fail(path, "expected \"auto\" or an entity tag of visible characters without a double quote inside (\"v1\", W/\"v1\"), found \(value.serialized())")
            return nil
        }
        return (text.hasPrefix("W/") ? "W/" : "") + "\"" + inner + "\""
    }

    /// An HTTP date (`Sun, 06 Nov 1994 08:49:37 GMT`) or an ISO 8601 time, as the IMF-fixdate
    /// `Last-Modified` sends.
    func lastModified(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path) else { return nil }
        if let seconds = HTTPDate.parse(text) { return HTTPDate.format(seconds) }
        if let date = ISO8601.parse(text) { return HTTPDate.format(Int(date.timeIntervalSince1970.rounded(.down))) }
        fail(path, "expected an HTTP date (Sun, 06 Nov 1994 08:49:37 GMT) or an ISO 8601 time (1994-11-06T08:49:37Z), found \"\(text)\"")
        return nil
    }
}

/// A route's `etag` and `lastModified`, which each of its variants takes unless it gives its own.
struct CacheValidatorDefaults {
    var etag: String?
    var lastModified: String?
}
