import StubCore

/// Checks a stub's JSON body against an operation's selection set and the schema's types:
/// missing and extra fields, scalars of the wrong kind, values not in an enum, and nulls where
/// the schema says non-null (allowed when the body also has `errors`, as partial data is).
struct GraphQLBodyCheck {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    /// The body's file, for messages.
    let file: String
    private var nullsAllowed = false
    private(set) var problems: [String] = []
    /// How many fragments (spread or inline) `collect` follows one into another; past it, the
    /// object is checked no further and that is said once.
    let depthLimit = GraphQLLimits.defaultDepth
    private var tooDeep = false

    init(schema: GraphQLSchema, document: GraphQLOperations, file: String) {
        self.schema = schema
        self.document = document
        self.file = file
    }

    /// Checks `body` as the answer to `operation`.
    mutating func check(_ body: JSONValue, operation: GraphQLOperations.Operation) {
        guard case .object(let members) = body else {
            problems.append("\(file): $: expected a GraphQL response object with \"data\", found \(body.kindDescription)")
            return
        }
        let errors = members.first { $0.key == "errors" }?.value
        nullsAllowed = errors != nil && errors != .null
        for (key, _) in members where !["data", "errors", "extensions"].contains(key) {
            problems.append("\(file): $.\(key): not part of a GraphQL response (expected data, errors and extensions)")
        }
        guard let data = members.first(where: { $0.key == "data" })?.value, data != .null else {
            if !nullsAllowed { problems.append("\(file): $.data: missing or null, and there are no errors") }
            return
        }
        guard let root = schema.root(operation.kind) else { return }
        checkObject(data, type: root, selections: operation.selections, path: "$.data")
    }

    private mutating func check(_ value: JSONValue, type: GraphQLType, selections: [GraphQLOperations.Selection], path: String, line: Int) {
        if value == .null {
            if case .nonNull = type, !nullsAllowed {
                problems.append("\(file): \(path): null where the schema says \(type) (\(schema.file):\(line))")
            }
            return
        }
        switch type {
        case .nonNull(let inner):
            check(value, type: inner, selections: selections, path: path, line: line)
        case .list(let inner):
            guard case .array(let items) = value else {
                problems.append("\(file): \(path): expected a list (\(type)), found \(value.kindDescription) (\(schema.file):\(line))")
                return
            }
            for (i, item) in items.enumerated() { check(item, type: inner, selections: selections, path: "\(path)[\(i)]", line: line) }
        case .named(let name):
            checkNamed(value, name: name, selections: selections, path: path, line: line)
        }
    }

    private mutating func checkNamed(_ value: JSONValue, name: String, selections: [GraphQLOperations.Selection], path: String, line: Int) {
        let where_ = "(\(schema.file):\(line))"
        if let problem = GraphQLBodyCheck.scalarMismatch(value, scalar: name) {
            problems.append("\(file): \(path): \(problem) \(where_)")
            return
        }
        guard let type = schema.types[name] else { return }
        switch type.kind {
        case .enum:
            guard case .string(let text) = value, type.enumValues.contains(text) else {
                problems.append("\(file): \(path): expected one of \(name)'s values (\(type.enumValues.sorted().joined(separator: ", "))), found \(value.serialized()) \(where_)")
                return
            }
        case .object, .interface, .union:
            checkObject(value, type: type, selections: selections, path: path)
        case .scalar, .input:
            return
        }
    }

    /// Why `value` is not the built-in scalar; nil when it fits (or the scalar is not built in).
    static func scalarMismatch(_ value: JSONValue, scalar: String) -> String? {
        func expected(_ what: String) -> String { "expected \(what), found \(value.kindDescription)" }
        switch (scalar, value) {
        case ("String", .string), ("Boolean", .bool), ("Float", .number), ("ID", .string): return nil
        case ("Int", .number(let n)), ("ID", .number(let n)):
            let whole = n.value.rounded() == n.value
            // From −2³¹ to 2³¹ − 1: one more below zero than above.
            if whole && Double(Int32.min) <= n.value && n.value <= Double(Int32.max) { return nil }
            // graphql-core's words, as it refuses to serialize the number.
            if whole && scalar == "Int" { return "Int cannot represent non 32-bit signed integer value: \(n.text)" }
            return expected("a 32-bit integer (\(scalar))")
        case ("String", _): return expected("a string (String)")
        case ("Boolean", _): return expected("a boolean (Boolean)")
        case ("Float", _): return expected("a number (Float)")
        case ("Int", _): return expected("an integer (Int)")
        case ("ID", _): return expected("a string or an integer (ID)")
        default: return nil
        }
    }

    private mutating func checkObject(_ value: JSONValue, type: GraphQLSchema.TypeDefinition, selections: [GraphQLOperations.Selection], path: String) {
        guard case .object(let members) = value else {
            problems.append("\(file): \(path): expected an object (\(type.name)), found \(value.kindDescription) (\(schema.file):\(type.line))")
            return
        }
        // The concrete type: __typename when the stub says it, else the type itself.
        var concrete = type.name
        if case .string(let typename)? = members.first(where: { $0.key == "__typename" })?.value, schema.types[typename] != nil { concrete = typename }
        var expected: [(field: GraphQLOperations.Field, on: String, required: Bool)] = []
        var visited: [String: Bool] = [:]
        guard collect(selections, parent: type.name, concrete: concrete, required: true, into: &expected, visited: &visited, depth: 1) else {
            if !tooDeep {
                problems.append("\(file): \(path): not checked: the operation's fragments nest deeper than \(depthLimit) levels here (\(document.file))")
            }
            tooDeep = true
            return
        }
        // A key selected more than once (through fragments) is checked once; required if any asks.
        var checked: Set<String> = []
        for (field, on, _) in expected where checked.insert(field.responseKey).inserted {
            let required = expected.contains { $0.field.responseKey == field.responseKey && $0.required }
            let at = "\(path).\(field.responseKey)"
            guard let got = members.first(where: { $0.key == field.responseKey })?.value else {
                if required { problems.append("\(file): \(at): missing; the operation selects it (\(document.file):\(field.line))") }
                continue
            }
            if field.name == "__typename" {
                if case .string = got { continue }
                problems.append("\(file): \(at): expected the type's name as a string, found \(got.kindDescription)")
                continue
            }
            guard let owner = schema.types[on], let definition = GraphQLBodyCheck.field(field.name, of: owner, in: schema) else { continue }
            check(got, type: definition.type, selections: field.selections, path: at, line: definition.line)
        }
        let keys = Set(expected.map(\.field.responseKey))
        for (key, _) in members where !keys.contains(key) {
            problems.append("\(file): \(path).\(key): not selected by the operation (\(document.file))")
        }
    }

    /// The fields a selection set asks of an object: fragments whose type condition the concrete
    /// type meets are required, others optional (the stub may be of another type). A fragment's
    /// fields are the same wherever it is spread, so it is followed once, or twice when it is
    /// first met optional and later required (`visited`: whether it was followed as required).
    /// False when fragments nest past `depthLimit`.
    private func collect(_ selections: [GraphQLOperations.Selection], parent: String, concrete: String, required: Bool,
                         into out: inout [(field: GraphQLOperations.Field, on: String, required: Bool)], visited: inout [String: Bool],
                         depth: Int) -> Bool {
        for selection in selections {
            let inner: [GraphQLOperations.Selection], on: String
            switch selection {
            case .field(let field):
                let on = schema.types[concrete].flatMap { GraphQLBodyCheck.field(field.name, of: $0, in: schema) } != nil ? concrete : parent
                out.append((field, on, required))
                continue
            case .spread(let name, _, _, _, _):
                guard let fragment = document.fragments[name] else { continue }
                let needed = required && applies(fragment.typeCondition, to: concrete)
                if let before = visited[name], before || !needed { continue }
                visited[name] = needed
                (inner, on) = (fragment.selections, fragment.typeCondition)
            case .inline(let condition, let selections, _, _, _, _):
                (inner, on) = (selections, condition ?? parent)
            }
            guard depth < depthLimit,
                  collect(inner, parent: on, concrete: concrete, required: required && applies(on, to: concrete), into: &out, visited: &visited,
                          depth: depth + 1) else { return false }
        }
        return true
    }

    /// Whether a fragment on `condition` applies to an object of type `concrete`.
    private func applies(_ condition: String, to concrete: String) -> Bool {
        condition == concrete || schema.types[condition]?.possibleTypes.contains(concrete) == true
            || schema.types[concrete]?.interfaces.contains(condition) == true
    }

    /// A field of `type`, or of one of its interfaces; `__typename` is on every type.
    static func field(_ name: String, of type: GraphQLSchema.TypeDefinition, in schema: GraphQLSchema) -> GraphQLSchema.Field? {
        if name == "__typename" { return .init(name: name, type: .nonNull(.named("String")), line: type.line) }
        if let own = type.fields[name] { return own }
        for interface in type.interfaces { if let inherited = schema.types[interface]?.fields[name] { return inherited } }
        return nil
    }
}
