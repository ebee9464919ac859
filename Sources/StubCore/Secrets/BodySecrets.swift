/// A request body's secrets, as its media type reads: JSON (members at any depth, GraphQL
/// variables among them) or a form (`a=1&password=…`). Other bodies are kept as they came.
enum BodySecrets {
    /// `body` with its secret values replaced by `marker(value)`; nil when nothing was replaced.
    static func redacted(_ body: [UInt8], contentType: String?, policy: SecretPolicy, marker: (String) -> String) -> [UInt8]? {
        let type = contentType?.lowercased() ?? ""
        let first = body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        if type.contains("x-www-form-urlencoded") { return form(body, policy: policy, marker: marker) }
        guard type.contains("json") || first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return nil }
        return JSONSecrets.redacted(body, policy: policy, marker: marker)
    }

    /// A form body with the values of its secret-named fields replaced, each percent-encoded.
    private static func form(_ body: [UInt8], policy: SecretPolicy, marker: (String) -> String) -> [UInt8]? {
        var changed = false
        let parts = body.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { part -> [UInt8] in
            guard let equals = part.firstIndex(of: UInt8(ascii: "=")) else { return Array(part) }
            let name = FormDecoding.decode(String(decoding: part[..<equals], as: UTF8.self), plusIsSpace: true)
            guard policy.isSecret(name) else { return Array(part) }
            let value = FormDecoding.decode(String(decoding: part[(equals + 1)...], as: UTF8.self), plusIsSpace: true)
            let replacement = marker(value)
            guard replacement != value else { return Array(part) }
            changed = true
            return Array(part[...equals]) + Array(replacement.percentEncodedComponent().utf8)
        }
        guard changed else { return nil }
        return Array(parts.joined(separator: [UInt8(ascii: "&")]))
    }
}
