import StubCore

/// A value that fits a schema, made the same way every time: the schema's `example` or
/// `default`, an enum's first value, a plausible value for a format (a fixed UUID, a date), and
/// for objects the required keys only (all keys with `allKeys`). A schema that contains itself
/// (a tree) stops where it would repeat: an empty array, or the key left out.
struct SchemaSynthesizer {
    let document: OpenAPIDocument
    let allKeys: Bool

    func value(_ schema: JSONValue?) -> JSONValue {
        var seen: [String] = []
        return value(schema, seen: &seen) ?? .null
    }

    private func value(_ schema: JSONValue?, seen: inout [String], alsoRequired: Set<String> = []) -> JSONValue? {
        guard let schema else { return .null }
        if case .string(let ref)? = schema["$ref"] {
            guard !seen.contains(ref), seen.count < 32 else { return nil }
            seen.append(ref)
            defer { seen.removeLast() }
            return value(document.resolve(ref), seen: &seen, alsoRequired: alsoRequired)
        }
        if let example = schema["example"] { return example }
        if case .array(let examples)? = schema["examples"], let first = examples.first { return first }
        if let fixed = schema["const"] ?? schema["default"] { return fixed }
        if case .array(let options)? = schema["enum"], let first = options.first { return first }
        if case .array(let parts)? = schema["allOf"] { return merged(parts, seen: &seen) }
        for key in ["oneOf", "anyOf"] {
            if case .array(let options)? = schema[key], let first = options.first { return value(first, seen: &seen) }
        }
        // A value that may be null, or a schema that says nothing of its type: null.
        if schema["nullable"] == .bool(true) || (schema["type"] == nil && schema["properties"] == nil && schema["items"] == nil) { return .null }
        switch SchemaSynthesizer.type(of: schema) {
        case "string": return .string(SchemaSynthesizer.sample(format: schema["format"]?.scalarText, minLength: schema["minLength"]))
        case "integer": return .number(bound(schema, fallback: 1).rounded(.up))
        case "number": return .number(bound(schema, fallback: 1.5))
        case "boolean": return .bool(true)
        case "null": return .null
        case "array":
            guard let item = value(schema["items"], seen: &seen) else { return .array([]) }
            var count = 1
            if case .number(let n)? = schema["minItems"], n > 1 { count = Int(min(n, 100)) }
            return .array(Array(repeating: item, count: count))
        default: return object(schema, seen: &seen, alsoRequired: alsoRequired)
        }
    }

    private func object(_ schema: JSONValue, seen: inout [String], alsoRequired: Set<String>) -> JSONValue {
        var required = alsoRequired
        if case .array(let list)? = schema["required"] { required = Set(list.compactMap(\.scalarText)) }
        var members: [(key: String, value: JSONValue)] = []
        if case .object(let properties)? = schema["properties"] {
            for (key, property) in properties where allKeys || required.contains(key) {
                if let v = value(property, seen: &seen) { members.append((key, v)) } else if required.contains(key) { members.append((key, .null)) }
            }
        }
        return .object(members)
    }

    /// `allOf`: the parts' objects merged, a later part's value winning (objects merged key by key).
    private func merged(_ parts: [JSONValue], seen: inout [String]) -> JSONValue {
        // A key one part requires is required of the whole, whichever part describes it.
        var required: Set<String> = []
        for part in parts {
            if case .array(let list)? = document.dereferenced(part)?["required"] { required.formUnion(list.compactMap(\.scalarText)) }
        }
        var result: JSONValue = .object([])
        for part in parts {
            guard let more = value(part, seen: &seen, alsoRequired: required) else { continue }
            result = SchemaSynthesizer.merge(result, more)
        }
        return result
    }

    static func merge(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        guard case .object(var members) = a, case .object(let more) = b else { return b == .null ? a : b }
        for member in more {
            if let i = members.firstIndex(where: { $0.key == member.key }) { members[i].value = merge(members[i].value, member.value) } else { members.append(member) }
        }
        return .object(members)
    }

    private func bound(_ schema: JSONValue, fallback: Double) -> Double {
        if case .number(let min)? = schema["minimum"] { return schema["exclusiveMinimum"] == .bool(true) ? min + 1 : min }
        if case .number(let min)? = schema["exclusiveMinimum"] { return min + 1 }
        if case .number(let max)? = schema["maximum"], max < fallback { return max }
        return fallback
    }

    /// `type`, or the first non-null of a 3.1 type array; objects when only `properties` say so.
    static func type(of schema: JSONValue) -> String {
        switch schema["type"] {
        case .string(let t)?: return t
        case .array(let list)?: return list.compactMap(\.scalarText).first { $0 != "null" } ?? "null"
        default: return schema["items"] != nil ? "array" : "object"
        }
    }

    static func sample(format: String?, minLength: JSONValue?) -> String {
        switch format {
        case "date-time"?: return "2026-01-01T12:00:00Z"
        case "date"?: return "2026-01-01"
        case "uuid"?: return "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case "email"?: return "user@example.com"
        case "uri"?, "url"?: return "https://example.com/"
        default:
            if case .number(let n)? = minLength, n > 6 { return String(repeating: "x", count: Int(n)) }
            return "string"
        }
    }
}
