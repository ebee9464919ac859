/// A path like `/api/v1/users/{id}` split into literal and parameter segments.
package struct PathTemplate: Sendable, Equatable {
    /// One segment of a template.
    package enum Segment: Sendable, Equatable {
        /// Must equal the request's segment.
        case literal(String)
        /// Matches any one non-empty segment and captures it under this name.
        case parameter(String)
    }

    /// The template as written, normalised to one leading slash and no trailing slash.
    package let text: String
    /// The segments in order.
    package let segments: [Segment]

    /// Parses a template; `{name}` segments are parameters.
    package init(_ text: String) {
        let parts = PathTemplate.split(text)
        segments = parts.map { part in
            if part.count > 2, part.hasPrefix("{"), part.hasSuffix("}") {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            return .literal(part)
        }
        self.text = "/" + parts.joined(separator: "/")
    }

    /// The names of the parameters, in order.
    package var parameterNames: [String] {
        segments.compactMap { if case .parameter(let n) = $0 { return n } else { return nil } }
    }

    /// Splits a path into its non-empty segments, at each `/` byte as a request's path is (the
    /// bytes, not the characters: no grapheme breaking, which made this the loader's costliest
    /// step for a large table).
    package static func split(_ path: some StringProtocol) -> [String] {
        var text = String(path)
        return text.withUTF8 { bytes in
            var parts: [String] = []
            var from = 0
            while let segment = RouteMatcher.segment(in: bytes, from: from) {
                parts.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[segment]), as: UTF8.self))
                from = segment.upperBound
            }
            return parts
        }
    }

    /// The captured parameters when `pathSegments` matches, else nil.
    package func match(_ pathSegments: [String]) -> [String: String]? {
        guard pathSegments.count == segments.count else { return nil }
        var captured: [String: String] = [:]
        for (segment, actual) in zip(segments, pathSegments) {
            switch segment {
            case .literal(let lit): if lit != actual { return nil }
            case .parameter(let name): captured[name] = actual
            }
        }
        return captured
    }

    /// The value `path` (as sent) gives the parameter `name`, read straight from the path's bytes
    /// and percent-decoded; nil when the template has no such parameter or the path is shorter.
    package func value(of name: String, in path: String) -> String? {
        guard let position = segments.firstIndex(of: .parameter(name)) else { return nil }
        var path = path
        return path.withUTF8 { bytes -> String? in
            var from = 0
            for _ in 0..<position {
                guard let skipped = RouteMatcher.segment(in: bytes, from: from) else { return nil }
                from = skipped.upperBound
            }
            return RouteMatcher.segment(in: bytes, from: from).map { PathDecoding.segment(UnsafeBufferPointer(rebasing: bytes[$0])) }
        }
    }
}
