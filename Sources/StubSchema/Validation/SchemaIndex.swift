import StubCore

/// The schema resources (`$id`, draft 4 `id`) and anchors (`$anchor`, `$dynamicAnchor`, draft 4
/// `id: "#name"`) of the schemas a compiler has seen, by absolute URI, so a `$ref` can find its
/// target wherever it lies. Only schema-valued keywords are walked: an `$id` inside `enum` or an
/// unknown keyword is data, not an identifier.
struct SchemaIndex {
    struct Entry {
        let schema: JSONValue
        /// The base URI in effect at the entry.
        let base: String
    }

    let dialect: SchemaDialect
    private(set) var resources: [String: Entry] = [:]
    private(set) var anchors: [String: Entry] = [:]
    /// `$dynamicAnchor` names and the resources that define them.
    private(set) var dynamicAnchors: [String: [String]] = [:]

    /// Keywords whose value is one schema.
    static let single = ["additionalItems", "additionalProperties", "contains", "propertyNames", "not", "if", "then", "else",
                         "unevaluatedItems", "unevaluatedProperties", "items"]
    /// Keywords whose value is a list of schemas.
    static let lists = ["allOf", "anyOf", "oneOf", "prefixItems", "items"]
    /// Keywords whose value maps names to schemas.
    static let maps = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]

    init(dialect: SchemaDialect) { self.dialect = dialect }

    /// Records `schema`'s identifiers; `register` makes `base` itself name it (a document root).
    mutating func add(_ schema: JSONValue, base: String, register: Bool) {
        if register, !base.isEmpty, resources[base] == nil { resources[base] = Entry(schema: schema, base: base) }
        var stack: [(JSONValue, String, Int)] = [(schema, base, 0)]
        while let (value, inherited, depth) = stack.popLast() {
            guard case .object = value, depth < 512 else { continue }
            if dialect == .draft4, value["$ref"] != nil { continue }
            let base = identify(value, base: inherited)
            for key in SchemaIndex.single { if let child = value[key], case .object = child { stack.append((child, base, depth + 1)) } }
            for key in SchemaIndex.lists { if case .array(let list)? = value[key] { for child in list { stack.append((child, base, depth + 1)) } } }
            for key in SchemaIndex.maps {
                if case .object(let members)? = value[key] { for member in members { stack.append((member.value, base, depth + 1)) } }
            }
        }
    }

    /// Records the identifiers `schema` itself declares; returns the base URI inside it.
    private mutating func identify(_ schema: JSONValue, base: String) -> String {
        var base = base
        let idKey = dialect == .draft4 ? "id" : "$id"
        if case .string(let id)? = schema[idKey] {
            let resolved = URIReference.resolve(id, against: base)
            let (uri, fragment) = URIReference.split(resolved)
            if !fragment.isEmpty, dialect == .draft4 {
                // draft 4's `"id": "#foo"` names a location, like a later `$anchor`.
                anchors[resolved] = Entry(schema: schema, base: uri)
                if uri != URIReference.split(base).base { resources[uri] = Entry(schema: schema, base: uri) }
            } else {
                resources[uri] = Entry(schema: schema, base: uri)
            }
            base = uri
        }
        if dialect == .draft2020 {
            if case .string(let name)? = schema["$anchor"] { anchors[base + "#" + name] = Entry(schema: schema, base: base) }
            if case .string(let name)? = schema["$dynamicAnchor"] {
                anchors[base + "#" + name] = Entry(schema: schema, base: base)
                if !(dynamicAnchors[name]?.contains(base) ?? false) { dynamicAnchors[name, default: []].append(base) }
            }
        }
        return URIReference.split(base).base
    }

    /// The schema `absolute` (a URI with an optional fragment) names, and the base URI there.
    func find(_ absolute: String) -> Entry? {
        let (uri, fragment) = URIReference.split(absolute)
        if fragment.isEmpty { return resources[uri] }
        if !fragment.hasPrefix("/") { return anchors[absolute] }
        guard let resource = resources[uri] else { return nil }
        var node = resource.schema
        var base = uri
        for raw in fragment.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let token = (String(raw).removingPercentEscapes).replacing("~1", with: "/").replacing("~0", with: "~")
            switch node {
            case .object:
                guard let next = node[token] else { return nil }
                node = next
            case .array(let items):
                guard let i = Int(token), items.indices.contains(i) else { return nil }
                node = items[i]
            default: return nil
            }
            let idKey = dialect == .draft4 ? "id" : "$id"
            if case .string(let id)? = node[idKey], dialect == .draft2020 || node["$ref"] == nil {
                base = URIReference.split(URIReference.resolve(id, against: base)).base
            }
        }
        return Entry(schema: node, base: base)
    }
}

extension String {
    /// `%25` → `%`, `%22` → `"`: JSON pointers in URI fragments are percent-encoded.
    var removingPercentEscapes: String {
        guard contains("%") else { return self }
        var bytes: [UInt8] = []
        var utf8 = Array(self.utf8)[...]
        while let b = utf8.first {
            if b == UInt8(ascii: "%"), utf8.count >= 3, let high = hexValue(utf8[utf8.startIndex + 1]), let low = hexValue(utf8[utf8.startIndex + 2]) {
                bytes.append(high << 4 | low)
                utf8 = utf8.dropFirst(3)
            } else {
                bytes.append(b)
                utf8 = utf8.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

private func hexValue(_ b: UInt8) -> UInt8? {
    switch b {
    case 0x30...0x39: return b - 0x30
    case 0x41...0x46: return b - 0x41 + 10
    case 0x61...0x66: return b - 0x61 + 10
    default: return nil
    }
}
