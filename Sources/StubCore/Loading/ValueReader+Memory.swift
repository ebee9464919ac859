/// Reading what variants remember: `when.state` and `then`.
extension ValueReader {
    /// A text template (a state name, a `then` value, a compared `when` value).
    func template(_ text: String, at path: String) -> ResponseTemplate? {
        switch ResponseTemplate.parse(Array(text.utf8), escapesJSON: false) {
        case .success(let template): return template
        case .failure(let error):
            fail(path, error.message)
            return nil
        }
    }

    /// `"state": {"name": value}`: each name a template, each value the JSON wanted.
    func stateCondition(_ value: JSONValue, at path: String) -> [(name: ResponseTemplate, want: JSONValue)] {
        guard case .object(let members) = value else {
            fail(path, "expected an object of state name to wanted value, found \(value.kindDescription)")
            return []
        }
        return members.compactMap { member in stateName(member.key, at: ValueReader.join(path, member.key)).map { ($0, member.value) } }
    }

    /// `"then": {"set": {…}, "unset": […], "increment": {…}}`.
    func stateChanges(_ value: JSONValue, at path: String) -> StateChanges? {
        guard let members = object(value, at: path, allowed: ["set", "unset", "increment"]) else { return nil }
        var changes = StateChanges()
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "set":
                guard case .object(let pairs) = v else { fail(p, "expected an object of state name to value, found \(v.kindDescription)"); continue }
                for (name, value) in pairs {
                    let at = ValueReader.join(p, name)
                    guard let n = stateName(name, at: at) else { continue }
                    if case .string(let text) = value, text.contains("{{") {
                        if let t = template(text, at: at) { changes.set.append((n, .template(t))) }
                    } else {
                        changes.set.append((n, .literal(value)))
                    }
                }
            case "unset":
                guard case .array(let names) = v else { fail(p, "expected an array of state names, found \(v.kindDescription)"); continue }
                for (i, name) in names.enumerated() {
                    let at = "\(p)[\(i)]"
                    if let text = string(name, at: at), let n = stateName(text, at: at) { changes.unset.append(n) }
                }
            default:
                guard case .object(let pairs) = v else { fail(p, "expected an object of state name to a number, found \(v.kindDescription)"); continue }
                for (name, amount) in pairs {
                    let at = ValueReader.join(p, name)
                    guard let n = stateName(name, at: at) else { continue }
                    guard case .number(let by) = amount else { fail(at, "expected a number to add, found \(amount.kindDescription)"); continue }
                    changes.increment.append((n, by.value))
                }
            }
        }
        return changes
    }

    /// A state name: text, or a template of the request (`order.{{path.id}}`).
    private func stateName(_ text: String, at path: String) -> ResponseTemplate? {
        guard !text.isEmpty else {
            fail(path, "expected a state name, found an empty one")
            return nil
        }
        return template(text, at: path)
    }
}
