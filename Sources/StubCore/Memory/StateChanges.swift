/// What a variant does to state when it answers (`"then"` in route.json): values set (from the
/// request, from other state, or literal), names unset, numbers incremented. Names and values
/// may be templates (`"order.{{path.id}}"`, `"{{body.newPassword}}"`).
package struct StateChanges: Sendable {
    /// A value to set: literal JSON, or a template rendered per request.
    package enum Value: Sendable {
        /// Written as given.
        case literal(JSONValue)
        /// A string template; one that is a single `{{state.…}}` or `{{json …}}` keeps its type.
        case template(ResponseTemplate)
    }

    /// `set`: name template → value.
    package var set: [(name: ResponseTemplate, value: Value)] = []
    /// `unset`: name templates.
    package var unset: [ResponseTemplate] = []
    /// `increment`: name template → amount.
    package var increment: [(name: ResponseTemplate, by: Double)] = []

    /// The changes for one request, names and values rendered; a name that renders empty is the
    /// error returned (its template's text, for the 400 that names it).
    func rendered(_ view: inout RequestView) -> Result<[StateChange], StateNameError> {
        var out: [StateChange] = []
        func name(_ template: ResponseTemplate) -> Result<String, StateNameError> {
            guard let text = template.renderedName(&view) else { return .failure(StateNameError(template: template.text)) }
            return .success(text)
        }
        for (n, value) in set {
            guard case .success(let key) = name(n) else { return .failure(StateNameError(template: n.text)) }
            switch value {
            case .literal(let json): out.append(.set(key, json))
            case .template(let t):
                if let single = t.single, case .json = single { out.append(.set(key, t.value(of: single, &view) ?? .null)) }
                else if let single = t.single, case .state = single { out.append(.set(key, t.value(of: single, &view) ?? .null)) }
                else { out.append(.set(key, .string(String(decoding: t.render(&view), as: UTF8.self)))) }
            }
        }
        for n in unset {
            guard case .success(let key) = name(n) else { return .failure(StateNameError(template: n.text)) }
            out.append(.unset(key))
        }
        for (n, by) in increment {
            guard case .success(let key) = name(n) else { return .failure(StateNameError(template: n.text)) }
            out.append(.increment(key, by))
        }
        return .success(out)
    }

    /// Every name template, for the load-time check of what reads state.
    var names: [ResponseTemplate] { self.set.map(\.name) + unset + increment.map(\.name) }
}

/// One change to one state value, rendered for a request.
package enum StateChange: Sendable, Equatable {
    case set(String, JSONValue)
    case unset(String)
    case increment(String, Double)

    /// The value's name.
    package var name: String {
        switch self {
        case .set(let n, _), .unset(let n), .increment(let n, _): return n
        }
    }
}

/// A state name with a placeholder the request gives no value for (`"order.{{path.id}}"` without an id).
package struct StateNameError: Error, Sendable {
    /// The name as written.
    package var template: String
}
