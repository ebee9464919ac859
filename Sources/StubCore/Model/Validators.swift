/// A variant's `ETag` and `Last-Modified`, read once from its headers when it loads: what a
/// conditional request (`If-None-Match`, `If-Modified-Since`) is answered against, as an HTTP
/// cache such as URLCache revalidates.
package struct Validators: Sendable {
    /// The entity tag as sent (`"v1"`, `W/"v1"`).
    package let etag: String?
    /// `Last-Modified` in seconds since 1970; nil when absent or not an HTTP date.
    package let lastModified: Int?

    /// The validators in `headers`; nil when there are none.
    init?(headers: [HTTPHeader]) {
        etag = headers.first { $0.name.lowercased() == "etag" }?.value
        lastModified = headers.first { $0.name.lowercased() == "last-modified" }.flatMap { HTTPDate.parse($0.value) }
        if etag == nil && lastModified == nil { return nil }
    }

    /// True when a GET or HEAD carrying these conditions is answered `304 Not Modified` (RFC 9110
    /// §13.1.2–3, §13.2.2): `If-None-Match` lists the tag (compared weakly) or is `*`; without
    /// `If-None-Match`, `If-Modified-Since` is no earlier than `Last-Modified`.
    package func notModified(ifNoneMatch: String?, ifModifiedSince: String?) -> Bool {
        if let ifNoneMatch {
            guard let etag else { return false }
            let own = Validators.opaque(etag)
            return ifNoneMatch.split(separator: ",").contains { candidate in
                let tag = PathText.trimmed(candidate)
                return tag == "*" || Validators.opaque(tag) == own
            }
        }
        guard let ifModifiedSince, let lastModified, let since = HTTPDate.parse(ifModifiedSince) else { return false }
        return lastModified <= since
    }

    /// True when a `Range` request whose `If-Range` is `ifRange` gets its range (RFC 9110
    /// §13.1.5): no `If-Range`, or one naming this strong tag exactly, or this `Last-Modified`
    /// exactly. Otherwise the representation may have changed and the whole body goes out.
    package static func rangeApplies(ifRange: String?, validators: Validators?) -> Bool {
        guard let ifRange = ifRange.map({ PathText.trimmed(Substring($0)) }) else { return true }
        if ifRange.hasPrefix("\"") || ifRange.hasPrefix("W/") {
            guard let etag = validators?.etag, !etag.hasPrefix("W/") else { return false }
            return ifRange == etag
        }
        guard let lastModified = validators?.lastModified, let date = HTTPDate.parse(ifRange) else { return false }
        return date == lastModified
    }

    /// An entity tag without its weakness mark, for the weak comparison.
    static func opaque<S: StringProtocol>(_ tag: S) -> Substring {
        let text = Substring(tag)
        return text.hasPrefix("W/") ? text.dropFirst(2) : text
    }

    /// The headers a 304 carries from the response it stands for (RFC 9110 §15.4.5).
    static let keptOnNotModified: Set<String> = ["etag", "last-modified", "cache-control", "expires", "vary", "content-location", "date"]
}
