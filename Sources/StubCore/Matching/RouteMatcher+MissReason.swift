/// Why a near miss did not match, in words a person reads beside the 404: the first place the
/// request and the route part (method, segment count, or one segment).
extension RouteMatcher {
    /// The first difference between the request and `route`, e.g.
    /// `segment 3: route has "users", request has "user"`.
    package static func missReason(method: String, path: String, route: Route) -> String {
        let segments = PathTemplate.split(path.prefix(Limits.maxNearMissPathBytes))
        let template = route.template.segments
        for (i, expected) in template.enumerated() {
            guard i < segments.count else {
                return "the route has \(template.count) path segments, the request \(segments.count)"
            }
            switch expected {
            case .literal(let text) where text != segments[i] && text != PathDecoding.decodedWhole(segments[i]):
                return "segment \(i + 1): the route has \"\(text)\", the request \"\(clipped(segments[i]))\""
            case .pattern(let pattern):
                // Patterns match the decoded segment, as the matcher does.
                var decoded = PathDecoding.decodedWhole(segments[i])
                if let why = decoded.withUTF8({ pattern.mismatch($0) }) {
                    return "segment \(i + 1): the route has \"\(pattern.text)\", the request \"\(clipped(segments[i]))\" (\(why))"
                }
            default:
                break
            }
        }
        if segments.count > template.count {
            return "the route has \(template.count) path segments, the request \(segments.count)"
        }
        if route.method != method {
            return "the route answers \(route.method), the request is \(clipped(method))"
        }
        return "the path and method match; another route or a GraphQL operation took precedence"
    }

    /// A request's text cut to a length fit for one line.
    private static func clipped(_ text: String) -> String {
        text.count <= 40 ? text : String(text.prefix(40)) + "…"
    }
}

extension StubCatalog {
    /// The routes closest to a request no route matched, and why each did not match: what the 404
    /// body and the journal show.
    package func nearMissesJSON(method: String, path: String) -> JSONValue {
        .array(matcher.nearMisses(method: method, path: path, in: routes).map { route in
            .object([("route", .string(route.id)), ("method", .string(route.method)), ("path", .string(route.fullPath)),
                     ("why", .string(RouteMatcher.missReason(method: method, path: path, route: route)))])
        })
    }
}
