import StubCore
import StubSchema

extension SchemaSynthesizer {
    func array(_ schema: JSONValue) -> JSONValue {
        var count = 1
        if let n = schema["minItems"]?.numberValue, n > 1 { count = Int(min(n, 100)) }
        if let n = schema["maxItems"]?.numberValue, Double(count) > n { count = n < 0 ? 0 : Int(n) }
        var items: [JSONValue] = []
        if case .array(let prefix)? = schema["prefixItems"] {
            for part in prefix.prefix(max(count, prefix.count)) { items.append(make(part) ?? .null) }
        }
        let itemSchema = schema["items"] ?? .object([])
        let unique = schema["uniqueItems"] == .bool(true)
        var attempt = 0
        while items.count < count && attempt < count * 4 {
            guard let item = make(itemSchema, variant: unique ? attempt : 0) else { break }
            attempt += 1
            if unique, items.contains(where: { JSONEquality.same($0, item) }) { continue }
            items.append(item)
        }
        return .array(items)
    }

    func object(_ schema: JSONValue, variant: Int) -> JSONValue {
        var required = Set<String>()
        if case .array(let list)? = schema["required"] { required = Set(list.compactMap(\.scalarText)) }
        var members: [(key: String, value: JSONValue)] = []
        var properties: [(key: String, value: JSONValue)] = []
        if case .object(let p)? = schema["properties"] { properties = p }
        for (key, property) in properties where allKeys || required.contains(key) {
            if let v = make(property, variant: variant) { members.append((key, v)) } else if required.contains(key) { members.append((key, .null)) }
        }
        let extra = schema["additionalProperties"]
        // Required keys no property describes: from additionalProperties, else a string.
        for key in required.sorted() where !members.contains(where: { $0.key == key }) {
            members.append((key, extra.flatMap { $0 == .bool(false) ? nil : make($0) } ?? .string("string")))
        }
        if case .object(let map)? = schema["dependentRequired"] {
            for (key, list) in map where members.contains(where: { $0.key == key }) {
                guard case .array(let needed) = list else { continue }
                for case .string(let other) in needed where !members.contains(where: { $0.key == other }) {
                    let property = properties.first { $0.key == other }?.value ?? .object([("type", .string("string"))])
                    members.append((other, make(property) ?? .string("string")))
                }
            }
        }
        // minProperties: optional properties in order, then made-up keys where others are allowed.
        let minimum = schema["minProperties"]?.wholeNumber(in: 0...SchemaSynthesizer.mostProperties) ?? 0
        for (key, property) in properties where members.count < minimum && !members.contains(where: { $0.key == key }) {
            if let v = make(property) { members.append((key, v)) }
        }
        var n = 1
        while members.count < minimum, extra != .bool(false), n <= minimum {
            let key = "key\(n)"
            n += 1
            guard !members.contains(where: { $0.key == key }) else { continue }
            members.append((key, extra.flatMap { make($0) } ?? .string("value")))
        }
        return .object(members)
    }
}
