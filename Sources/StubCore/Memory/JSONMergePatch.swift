/// JSON Merge Patch (RFC 7396): a patch object's members replace the target's, `null` removes
/// one, nested objects merge; a patch that is not an object replaces the target whole.
enum JSONMergePatch {
    static func apply(_ patch: JSONValue, to target: JSONValue) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members: [(key: String, value: JSONValue)]
        if case .object(let existing) = target { members = existing } else { members = [] }
        for (key, value) in changes {
            let at = members.firstIndex { $0.key == key }
            if value == .null {
                if let at { members.remove(at: at) }
            } else if let at {
                members[at].value = apply(value, to: members[at].value)
            } else {
                members.append((key, apply(value, to: .null)))
            }
        }
        return .object(members)
    }
}
