import StubCore

/// Turns JSON Schemas into `CompiledSchema`s: every keyword read once, every pattern compiled
/// once, every `$ref` target compiled once however often it is used (refs to the same target
/// share a node, so recursive schemas are finite graphs).
///
/// Refs are resolved against the base URI in effect (`$id`), through the identifiers the
/// compiler has seen, and otherwise through `resolve`, which an OpenAPI document answers with
/// its own components and files. A compiler is used from one thread; the schemas it makes are
/// immutable and `Sendable`.
package final class SchemaCompiler {
    let dialect: SchemaDialect
    let assertFormats: Bool
    private let resolveExternal: (String) -> JSONValue?
    let arena = SchemaArena()
    private var index: SchemaIndex
    private var compiledRefs: [String: SchemaNode] = [:]
    /// Ref targets made but not filled yet: filled after the schema that named them, so a long
    /// chain of refs costs no stack.
    private var pending: [(node: SchemaNode, schema: JSONValue, base: String, location: String)] = []
    private var seenDocuments = Set<String>()
    /// Patterns that cannot be used (checked as if absent), once each: `pattern (?=x) at …: …`.
    package private(set) var warnings: [String] = []
    /// Refs no schema or document answered, as resolved (`http://example.com/x.json#/a`).
    package private(set) var unresolved: [String] = []
    private var warned = Set<String>()

    /// A compiler for `dialect`; `assertFormats` makes `format` a check (JSON Schema 2020-12 calls
    /// it an annotation; OpenAPI users expect it checked); `resolve` answers refs no compiled
    /// schema identifies (an absolute `file#pointer` in an OpenAPI document).
    package init(dialect: SchemaDialect, assertFormats: Bool = true, resolve: @escaping (String) -> JSONValue? = { _ in nil }) {
        self.dialect = dialect
        self.assertFormats = assertFormats
        resolveExternal = resolve
        index = SchemaIndex(dialect: dialect)
    }

    /// Compiles `schema`. `base` is its URI (a file path for OpenAPI documents); `register`
    /// makes `base` name the schema itself (a standalone schema document); `location` names
    /// where it stands, for warnings.
    package func compile(_ schema: JSONValue, base: String = "", register: Bool = false, location: String = "") -> CompiledSchema {
        index.add(schema, base: base, register: register)
        let root = arena.make()
        fill(root, from: schema, base: base, location: location)
        while let job = pending.popLast() {
            fill(job.node, from: job.schema, base: job.base, location: job.location)
            // A ref enters the resource its target lies in, for `$dynamicRef`'s dynamic scope.
            if job.node.resource == nil, !job.base.isEmpty { job.node.resource = job.base }
        }
        if register, root.resource == nil, !base.isEmpty { root.resource = base }
        return CompiledSchema(root: root, arena: arena, dialect: dialect)
    }

    /// The node for the target of `ref` written at `base`, compiled once; nil when it cannot be found.
    func target(_ ref: String, base: String) -> SchemaNode? {
        let absolute = base.isEmpty ? ref : URIReference.resolve(ref, against: base)
        if let known = compiledRefs[absolute] { return known }
        var entry = index.find(absolute)
        if entry == nil, let external = resolveExternal(absolute) ?? (absolute == ref ? nil : resolveExternal(ref)) {
            let document = URIReference.split(absolute).base
            if seenDocuments.insert(document).inserted { index.add(external, base: document, register: false) }
            entry = SchemaIndex.Entry(schema: external, base: document)
        }
        guard let entry else {
            unresolved.append(absolute)
            return nil
        }
        let node = arena.make()
        compiledRefs[absolute] = node
        pending.append((node, entry.schema, entry.base, absolute))
        return node
    }

    func warn(_ text: String) {
        if warned.insert(text).inserted { warnings.append(text) }
    }

    /// Reads one schema's keywords into `node`.
    func fill(_ node: SchemaNode, from schema: JSONValue, base inherited: String, location: String) {
        switch schema {
        case .bool(let allowed): node.always = allowed; return
        case .object: break
        default: node.always = true; return
        }
        var base = inherited
        let idKey = dialect == .draft4 ? "id" : "$id"
        if case .string(let id)? = schema[idKey], dialect == .draft2020 || schema["$ref"] == nil {
            let resolved = URIReference.split(URIReference.resolve(id, against: base))
            if !(dialect == .draft4 && !resolved.fragment.isEmpty && resolved.base == URIReference.split(base).base) {
                base = resolved.base
                node.resource = base
            }
        }
        if case .string(let ref)? = schema["$ref"] {
            node.refText = ref
            if let target = target(ref, base: base) { node.ref = target } else { node.refMissing = true }
            // draft 4 and OpenAPI 3.0: a $ref stands for its target; its siblings are ignored.
            if dialect == .draft4 { return }
        }
        if dialect == .draft2020, case .string(let ref)? = schema["$dynamicRef"] { dynamicRef(ref, node: node, base: base) }
        readGeneral(node, schema, base: base, location: location)
        readNumbersAndStrings(node, schema, location: location)
        readArrays(node, schema, base: base, location: location)
        readObjects(node, schema, base: base, location: location)
    }

    private func dynamicRef(_ ref: String, node: SchemaNode, base: String) {
        node.refText = ref
        guard let initial = target(ref, base: base) else { node.refMissing = true; return }
        node.dynamicFallback = initial
        let absolute = URIReference.resolve(ref, against: base)
        let name = URIReference.split(absolute).fragment
        guard !name.isEmpty, !name.hasPrefix("/"), case .string(name)? = index.find(absolute)?.schema["$dynamicAnchor"] else { return }
        node.dynamicAnchorRef = name
        guard arena.dynamicAnchors[name] == nil else { return }
        arena.dynamicAnchors[name] = []
        for resource in index.dynamicAnchors[name] ?? [] {
            if let anchored = target("#" + name, base: resource) { arena.dynamicAnchors[name]?.append((resource, anchored)) }
        }
    }

    /// A subschema of `schema` under `key`, compiled.
    func child(_ value: JSONValue, base: String, location: String) -> SchemaNode {
        let node = arena.make()
        fill(node, from: value, base: base, location: location)
        return node
    }

    func children(_ value: JSONValue?, base: String, location: String) -> [SchemaNode] {
        guard case .array(let list)? = value else { return [] }
        return list.enumerated().map { child($1, base: base, location: "\(location)/\($0)") }
    }

    func regex(_ pattern: String, location: String) -> ECMARegex? {
        do { return try ECMARegex(pattern) } catch {
            warn("pattern \(pattern) at \(location) cannot be used: \(error.reason); it is not checked")
            return nil
        }
    }
}

/// A schema ready to check instances: immutable, `Sendable`, cheap to share between threads.
package struct CompiledSchema: Sendable {
    let root: SchemaNode
    let arena: SchemaArena
    let dialect: SchemaDialect
}
