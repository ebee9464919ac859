import StubCore

/// One compiled schema: its keywords read once into typed fields (patterns compiled, property
/// names keyed, draft 4 bounds turned into 2020-12 ones), so checking an instance never reads
/// the schema's JSON again.
///
/// @unchecked Sendable: every field is written only while the compiler builds the graph (ref
/// targets are filled in once their schema is compiled, which cycles need), and the graph is
/// published through `CompiledSchema` only after compilation ends; from then on it is read-only.
final class SchemaNode: @unchecked Sendable {
    /// `true` or `false` as a whole schema.
    var always: Bool?
    /// `$ref`: the target, owned by the arena (refs may form cycles, so they do not retain).
    unowned(unsafe) var ref: SchemaNode?
    /// The ref as written, for messages when it leads nowhere.
    var refText: String?
    var refMissing = false
    /// `$dynamicRef`: the anchor name and the static target.
    var dynamicAnchorRef: String?
    unowned(unsafe) var dynamicFallback: SchemaNode?
    /// The schema resource this node starts (its `$id`), for `$dynamicRef`'s dynamic scope.
    var resource: String?

    var types: [String]?
    var nullable = false
    var format: String?
    var enumValues: [JSONValue]?
    var constValue: JSONValue?
    var allOf: [SchemaNode] = []
    var anyOf: [SchemaNode] = []
    var oneOf: [SchemaNode] = []
    var not: SchemaNode?
    var ifSchema: SchemaNode?
    var thenSchema: SchemaNode?
    var elseSchema: SchemaNode?

    var minimum: Double?
    var maximum: Double?
    var exclusiveMinimum: Double?
    var exclusiveMaximum: Double?
    var multipleOf: Double?

    var minLength: Int?
    var maxLength: Int?
    var pattern: ECMARegex?

    var prefixItems: [SchemaNode] = []
    /// Items after `prefixItems` (draft 4: `additionalItems` after an `items` list, or `items`).
    var items: SchemaNode?
    var contains: SchemaNode?
    var minContains = 1
    var maxContains: Int?
    var minItems: Int?
    var maxItems: Int?
    var uniqueItems = false
    var unevaluatedItems: SchemaNode?

    var properties: [ExactKey: SchemaNode] = [:]
    var patternProperties: [(regex: ECMARegex, schema: SchemaNode)] = []
    var additionalProperties: SchemaNode?
    var propertyNames: SchemaNode?
    var required: [String] = []
    var minProperties: Int?
    var maxProperties: Int?
    var dependentRequired: [(key: String, required: [String])] = []
    var dependentSchemas: [(key: String, schema: SchemaNode)] = []
    var unevaluatedProperties: SchemaNode?

    init() {}
}

/// A string compared by Unicode scalars, not by canonical equivalence as `String` compares:
/// JSON Schema treats `"a\u0308"` and `"ä"` as different property names and values.
struct ExactKey: Hashable, Sendable {
    let text: String

    init(_ text: String) { self.text = text }

    static func == (a: ExactKey, b: ExactKey) -> Bool { a.text.unicodeScalars.elementsEqual(b.text.unicodeScalars) }

    func hash(into hasher: inout Hasher) {
        for scalar in text.unicodeScalars { hasher.combine(scalar.value) }
    }
}

/// Owns every node of one compilation, so refs can point anywhere (cycles too) without
/// retaining each other.
///
/// @unchecked Sendable: appended to only while compiling; read-only once published.
final class SchemaArena: @unchecked Sendable {
    var nodes: [SchemaNode] = []
    /// `$dynamicAnchor` targets by anchor name: the resource that defines each, and its node.
    var dynamicAnchors: [String: [(resource: String, node: SchemaNode)]] = [:]
    /// True when some schema uses `unevaluatedProperties` or `unevaluatedItems`, which need
    /// annotations from every applicator; without them checking skips that work.
    var tracksAnnotations = false

    func make() -> SchemaNode {
        let node = SchemaNode()
        nodes.append(node)
        return node
    }
}
