/// Checks of what an app sent that hold whether the journal keeps secrets verbatim or redacted
/// (`CredentialRedaction`): a test compares with the value it expects, either way.
extension StubRequest {
    /// True when header `name` was sent as `value`.
    public func header(_ name: String, is value: String) -> Bool {
        guard let kept = header(name) else { return false }
        return CredentialRedaction.matches(kept: kept, name: name, value: value)
    }

    /// True when query parameter `name` was sent as `value`.
    public func query(_ name: String, is value: String) -> Bool {
        guard let kept = queryValue(name) else { return false }
        return CredentialRedaction.matches(kept: kept, value: value)
    }

    /// True when the body field at `path` was sent as the string `value`: a form field, or a JSON
    /// member, with dots for members inside objects (`variables.input.password`).
    public func bodyField(_ path: String, is value: String) -> Bool {
        guard let kept = bodyString(at: path) else { return false }
        return CredentialRedaction.matches(kept: kept, value: value)
    }

    /// The string at `path` in a JSON body, or the form field `path`.
    private func bodyString(at path: String) -> String? {
        if case let parsed? = try? JSONParser.parse(body) {
            var value: JSONValue? = parsed
            for name in path.split(separator: ".", omittingEmptySubsequences: false) { value = value?[String(name)] }
            if case .string(let text)? = value { return text }
            return nil
        }
        return bodyFields[path]
    }
}
