/// The parts of a `when` that read state: `"state": {"loggedIn": true}` (equal JSON; `"*"`: present;
/// `null`: absent or null), and request values compared with a template of state
/// (`"body": {"password": "{{state.password}}"}`).
package struct StateCondition: Sendable {
    /// Where a compared request value is read.
    package enum Place: String, Sendable {
        case path, query, headers, body, variables
    }

    /// `when.state`: name template → wanted value.
    package var state: [(name: ResponseTemplate, want: JSONValue)] = []
    /// Request values compared with a rendered template.
    package var compared: [(place: Place, name: String, template: ResponseTemplate)] = []

    /// True when nothing is listed.
    package var isEmpty: Bool { state.isEmpty && compared.isEmpty }

    /// True when every listed value holds for the request behind `view` and its memory.
    func holds(for view: inout RequestView) -> Bool {
        for (nameTemplate, want) in state {
            let got = nameTemplate.renderedName(&view).flatMap { view.memory?.state($0) }
            switch want {
            case .string("*"): if got == nil { return false }
            case .null: if let got, got != .null { return false }
            default: if got != want { return false }
            }
        }
        for (place, name, template) in compared {
            let want = String(decoding: template.render(&view), as: UTF8.self)
            let got: String?
            switch place {
            case .path: got = view.parameter(name)
            case .query: got = view.queryValues(name).first { $0 == want } ?? view.query(name)
            case .headers: got = view.header(name)
            case .body: got = view.bodyField(name)
            case .variables: got = view.graphQL?.variable(name)
            }
            guard let got, got == want else { return false }
        }
        return true
    }
}
