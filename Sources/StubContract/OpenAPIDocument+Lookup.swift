import StubCore

extension OpenAPIDocument {
    /// The documented response for `status`: exact, then `2XX`-style, then `default`.
    package func response(_ operation: Operation, status: Int) -> Response? {
        operation.responses.first { $0.status == String(status) }
            ?? operation.responses.first { $0.status.uppercased() == "\(status / 100)XX" }
            ?? operation.responses.first { $0.status == "default" }
    }

    /// The operation for a route's method and full path; templates compared by position, and a
    /// `HEAD` route answered by the `GET` operation when there is no `HEAD` one.
    package func operation(method: String, fullPath: String) -> Operation? {
        for m in method == "HEAD" ? ["HEAD", "GET"] : [method] {
            if let index = byShape[OpenAPIDocument.shapeKey(m, fullPath)] { return operations[index] }
        }
        return nil
    }

    /// `GET /users/{}`: the method and the path with every `{param}` blanked.
    static func shapeKey(_ method: String, _ path: String) -> String {
        method + " " + shape(path).joined(separator: "/")
    }

    /// Segments with every `{param}` blanked, as stubd's matcher sees them: `/users/{}`,
    /// `/Accounts/{}.json`.
    static func shape(_ path: String) -> [String] {
        PathTemplate(path).segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter: "{}"
            case .pattern(let pattern): pattern.shape
            }
        }
    }
}
