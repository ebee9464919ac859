/// RFC 3986 reference resolution, for `$id` and `$ref`: enough of URIs to find a schema by its
/// identifier (`tree` against `http://example.com/root.json` is `http://example.com/tree`).
enum URIReference {
    struct Parts: Equatable {
        var scheme: String?
        var authority: String?
        var path: String
        var query: String?
        var fragment: String?

        var text: String {
            var out = ""
            if let scheme { out += scheme + ":" }
            if let authority { out += "//" + authority }
            out += path
            if let query { out += "?" + query }
            if let fragment { out += "#" + fragment }
            return out
        }
    }

    static func parse(_ text: String) -> Parts {
        var rest = Substring(text)
        var parts = Parts(path: "")
        if let hash = rest.firstIndex(of: "#") {
            parts.fragment = String(rest[rest.index(after: hash)...])
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            parts.query = String(rest[rest.index(after: question)...])
            rest = rest[..<question]
        }
        if let colon = rest.firstIndex(of: ":"), let first = rest.first, first.isLetter,
           rest[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == "." }) {
            parts.scheme = String(rest[..<colon])
            rest = rest[rest.index(after: colon)...]
        }
        if rest.hasPrefix("//") {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(of: "/") ?? rest.endIndex
            parts.authority = String(rest[..<end])
            rest = rest[end...]
        }
        parts.path = String(rest)
        return parts
    }

    /// `reference` resolved against `base` (RFC 3986 §5.2).
    static func resolve(_ reference: String, against base: String) -> String {
        let r = parse(reference)
        let b = parse(base)
        var t = Parts(path: "")
        if r.scheme != nil {
            t = r
            t.path = removeDots(r.path)
        } else if r.authority != nil {
            t = r
            t.scheme = b.scheme
            t.path = removeDots(r.path)
        } else {
            t.scheme = b.scheme
            t.authority = b.authority
            if r.path.isEmpty {
                t.path = b.path
                t.query = r.query ?? b.query
            } else {
                if r.path.hasPrefix("/") {
                    t.path = removeDots(r.path)
                } else {
                    t.path = removeDots(merge(base: b, path: r.path))
                }
                t.query = r.query
            }
        }
        t.fragment = r.fragment
        return t.text
    }

    private static func merge(base: Parts, path: String) -> String {
        if base.authority != nil, base.path.isEmpty { return "/" + path }
        guard let slash = base.path.lastIndex(of: "/") else { return path }
        return String(base.path[...slash]) + path
    }

    private static func removeDots(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (i, segment) in segments.enumerated() {
            switch segment {
            case ".": if i == segments.count - 1 { output.append("") }
            case "..":
                if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
                if i == segments.count - 1 { output.append("") }
            default: output.append(segment)
            }
        }
        return output.joined(separator: "/")
    }

    /// The URI without its fragment, and the fragment (empty when there is none).
    static func split(_ uri: String) -> (base: String, fragment: String) {
        guard let hash = uri.firstIndex(of: "#") else { return (uri, "") }
        return (String(uri[..<hash]), String(uri[uri.index(after: hash)...]))
    }
}
