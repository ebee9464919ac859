import StubCore

/// The credentials a collection names as such: its auth blocks' (`bearer` token, `basic`
/// password, `apikey` value, OAuth secrets) and the variables of type `secret`. Their values are
/// scrubbed wherever an example repeats them; body fields are otherwise secret only when shaped
/// like a token (`SecretShape`).
extension PostmanReader {
    /// The values of `type: secret` entries of a variable list (a collection's or an
    /// environment's), switched-off ones too: a secret is a secret.
    static func secretValues(_ list: JSONValue?, place: String) -> [(place: String, name: String, value: String)] {
        guard case .array(let entries)? = list else { return [] }
        return entries.compactMap { entry in
            guard entry["type"]?.scalarText == "secret", let key = entry["key"]?.scalarText,
                  let value = entry["value"]?.scalarText, !value.isEmpty else { return nil }
            return (place, key, value)
        }
    }

    /// The credentials of every auth block in `value` (the collection, its folders, requests and
    /// saved requests), variables resolved.
    func authSecrets(in value: JSONValue, policy: SecretPolicy) -> [(place: String, name: String, value: String)] {
        var found: [(place: String, name: String, value: String)] = []
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    if key == "auth", let type = member["type"]?.scalarText, let entries = member[type] {
                        for (name, secret) in PostmanReader.authEntries(entries) where policy.isSecret(name) || (type == "apikey" && name == "value") {
                            let resolved = resolve(secret)
                            if !resolved.isEmpty, unresolved(resolved) == nil { found.append(("Postman \(type) auth", name, resolved)) }
                        }
                    }
                    visit(member)
                }
            case .array(let items): items.forEach(visit)
            default: break
            }
        }
        visit(value)
        return found
    }

    /// An auth type's settings: v2.1's `[{key, value}]` or v2.0's object.
    static func authEntries(_ value: JSONValue) -> [(String, String)] {
        switch value {
        case .array(let entries):
            return entries.compactMap { entry in entry["key"]?.scalarText.flatMap { key in entry["value"]?.scalarText.map { (key, $0) } } }
        case .object(let members):
            return members.compactMap { key, member in member.scalarText.map { (key, $0) } }
        default:
            return []
        }
    }
}
