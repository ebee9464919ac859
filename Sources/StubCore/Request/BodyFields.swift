/// Top-level fields of a request body for `when` conditions and templates: a JSON object's members
/// (scalars as their text, the rest as JSON) or form-encoded pairs, the first of each name.
package enum BodyFields {
    package static func parse(_ body: [UInt8], contentType: String?) -> [String: String] {
        guard !body.isEmpty else { return [:] }
        let type = contentType?.lowercased() ?? ""
        let looksLikeJSON = type.contains("json") || (!type.contains("form") && body.first == UInt8(ascii: "{"))
        var fields: [String: String] = [:]
        if looksLikeJSON {
            guard case .object(let members)? = try? JSONParser.parse(body) else { return [:] }
            for (key, value) in members where fields[key] == nil {
                fields[key] = value.scalarText ?? value.serialized()
            }
            return fields
        }
        for (key, value) in FormDecoding.pairs(String(decoding: body, as: UTF8.self)) where fields[key] == nil {
            fields[key] = value
        }
        return fields
    }
}
