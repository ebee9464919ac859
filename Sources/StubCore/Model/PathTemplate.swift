/// A path like `/api/v1/users/{id}` or `/Accounts/{Sid}.json` split into literal, parameter and
/// mixed segments.
package struct PathTemplate: Sendable, Equatable {
    /// One segment of a template.
    package enum Segment: Sendable, Equatable {
        /// Must equal the request's segment.
        case literal(String)
        /// Matches any one non-empty segment and captures it under this name.
        case parameter(String)
        /// Literal text and parameters in one segment (`{Sid}.json`).
        case pattern(SegmentPattern)
    }

    /// The template as written, normalised to one leading slash and no trailing slash.
    package let text: String
    /// The segments in order.
    package let segments: [Segment]

    /// Parses a template; `{name}` segments are parameters, segments with a `{name}` beside
    /// literal text patterns.
    package init(_ text: String) {
        let parts = PathTemplate.split(text)
        segments = parts.map { part in
            if part.count > 2, part.hasPrefix("{"), part.hasSuffix("}"), !part.dropFirst().dropLast().contains(where: { $0 == "{" || $0 == "}" }) {
                return .parameter(String(part.dropFirst().dropLast()))
            }
            if let pattern = SegmentPattern(part) { return .pattern(pattern) }
            return .literal(part)
        }
        self.text = "/" + parts.joined(separator: "/")
    }

    /// The names of the parameters, in order.
    package var parameterNames: [String] {
        segments.flatMap { segment -> [String] in
            switch segment {
            case .literal: []
            case .parameter(let name): [name]
            case .pattern(let pattern): pattern.parameterNames
            }
        }
    }

    /// Which segment holds the parameter `name`, or nil.
    package func position(of name: String) -> Int? {
        segments.firstIndex { segment in
            switch segment {
            case .literal: false
            case .parameter(let other): other == name
            case .pattern(let pattern): pattern.parameterNames.contains(name)
            }
        }
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
                parts.append(String(decoding: bytes[segment], as: UTF8.self))
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
            case .pattern(let pattern):
                var text = actual
                guard let values = text.withUTF8({ bytes in pattern.match(bytes).map { $0.map { String(decoding: bytes[$0], as: UTF8.self) } } })
                else { return nil }
                for (name, value) in zip(pattern.parameterNames, values) { captured[name] = value }
            }
        }
        return captured
    }

    /// The value `path` (as sent) gives the parameter `name`, read straight from the path's bytes
    /// and percent-decoded; nil when the template has no such parameter or the path is shorter.
    package func value(of name: String, in path: String) -> String? {
        guard let position = position(of: name) else { return nil }
        var path = path
        let whole = path.withUTF8 { bytes -> String? in
            var from = 0
            for _ in 0..<position {
                guard let skipped = RouteMatcher.segment(in: bytes, from: from) else { return nil }
                from = skipped.upperBound
            }
            return RouteMatcher.segment(in: bytes, from: from).map { PathDecoding.segment(UnsafeBufferPointer(rebasing: bytes[$0])) }
        }
        guard case .pattern(let pattern) = segments[position], var segment = whole else { return whole }
        return segment.withUTF8 { pattern.value(of: name, in: $0) }
    }
}
