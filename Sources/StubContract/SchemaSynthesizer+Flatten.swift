import StubCore

extension SchemaSynthesizer {
    /// `schema` with its `allOf` parts merged in (refs followed): properties from every part,
    /// `required` from every part and from beside the `allOf`, the tighter of two bounds.
    func flatten(_ schema: JSONValue, depth: Int = 0) -> JSONValue {
        guard case .array(let parts)? = schema["allOf"], depth < 16 else { return schema }
        var result = schema
        result.remove("allOf")
        for part in parts {
            var resolved = part
            var seen = Set<String>()
            while case .string(let ref)? = resolved["$ref"], seen.insert(ref).inserted, !expanding.contains(ref), let target = document.resolve(ref) {
                resolved = target
            }
            guard resolved["$ref"] == nil else { continue }
            result = SchemaSynthesizer.merge(result, flatten(resolved, depth: depth + 1))
        }
        return result
    }

    /// `schema` resolved (a chain of refs followed) with its `allOf` merged; nil for none, or a
    /// ref that leads nowhere.
    func resolvedFlat(_ schema: JSONValue?) -> JSONValue? {
        document.dereferenced(schema).map { flatten($0) }
    }

    /// The type a schema says (`integer`, `object`…; an object when only `properties` say so),
    /// nil when it says none (`{}`, a bare `oneOf`).
    static func declaredType(_ flat: JSONValue?) -> String? {
        guard let flat, flat["type"] != nil || flat["properties"] != nil || flat["items"] != nil else { return nil }
        return type(of: flat)
    }

    /// Two schemas as one: properties merged (a property both describe must fit both), `required`
    /// joined, the larger minimum and smaller maximum kept, otherwise the first one's keyword.
    static func merge(_ a: JSONValue, _ b: JSONValue) -> JSONValue {
        guard case .object(var members) = a, case .object(let more) = b else { return a == .null ? b : a }
        for (key, value) in more {
            guard let i = members.firstIndex(where: { $0.key == key }) else {
                members.append((key, value))
                continue
            }
            let mine = members[i].value
            switch key {
            case "properties":
                guard case .object(var mineProps) = mine, case .object(let theirs) = value else { continue }
                for (name, schema) in theirs {
                    if let j = mineProps.firstIndex(where: { $0.key == name }) {
                        mineProps[j].value = .object([("allOf", .array([mineProps[j].value, schema]))])
                    } else {
                        mineProps.append((name, schema))
                    }
                }
                members[i].value = .object(mineProps)
            case "required":
                guard case .array(let x) = mine, case .array(let y) = value else { continue }
                members[i].value = .array(x + y.filter { !x.contains($0) })
            case "minimum", "minLength", "minItems", "minProperties", "exclusiveMinimum":
                if let m = mine.numberValue, let n = value.numberValue, n > m { members[i].value = value }
            case "maximum", "maxLength", "maxItems", "maxProperties", "exclusiveMaximum":
                if let m = mine.numberValue, let n = value.numberValue, n < m { members[i].value = value }
            default:
                break
            }
        }
        return .object(members)
    }
}
