/// What one placeholder gives for a request: its text, or its value as JSON.
extension ResponseTemplate {
    /// The template as text, nil when a placeholder has no value for this request (a state name
    /// like `order.{{path.id}}` must not become `order.`).
    func renderedName(_ view: inout RequestView) -> String? {
        var out = ""
        for part in parts {
            switch part {
            case .literal(let bytes): out += String(decoding: bytes, as: UTF8.self)
            case .value(let source):
                let value = text(of: source, &view)
                if value.isEmpty { return nil }
                out += value
            }
        }
        return out.isEmpty ? nil : out
    }

    /// The text a placeholder renders as; a value the request lacks is an empty string.
    func text(of source: Source, _ view: inout RequestView) -> String {
        switch source {
        case .path(let name): return view.parameter(name) ?? ""
        case .query(let name): return view.query(name) ?? ""
        case .header(let name): return view.header(name) ?? ""
        case .body(let name): return view.bodyField(name) ?? ""
        case .bodyPath, .state, .json: return value(of: source, &view).map { $0.scalarText ?? $0.serialized() } ?? ""
        case .method: return view.head.method
        case .requestPath: return view.head.path
        case .helper(let helper):
            if let memory = view.memory { return memory.render(helper) }
            var generator = SeededGenerator(seed: 0)
            return helper.render(now: WallClock.unixSeconds(), generator: &generator, counter: 0)
        }
    }

    /// A placeholder's value as JSON: the request's own type for body paths and state, a string
    /// for the rest; nil when the request has none.
    func value(of source: Source, _ view: inout RequestView) -> JSONValue? {
        switch source {
        case .bodyPath(let path): return view.bodyValue(at: path)
        case .body(let name): return view.bodyValue(at: [name])
        case .state(let name): return view.memory?.state(name)
        case .json(let inner): return value(of: inner, &view)
        case .path, .query, .header, .method, .requestPath, .helper: return .string(text(of: source, &view))
        }
    }
}
