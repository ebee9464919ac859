import StubCore

/// The type-system rules graphql-core enforces on a schema (its `assert_valid_sdl` and
/// `validate_schema`): names defined once, every named type known, roots that are object types,
/// fields of output types and arguments of input types, interfaces implemented in full with
/// compatible types, unions of object types, enums with values, input objects without a cycle of
/// non-null fields. Each problem names file, line and column; messages follow graphql-core's.
struct GraphQLSchemaCheck {
    let schema: GraphQLSchema
    private(set) var problems: [GraphQLDocumentError] = []

    init(_ schema: GraphQLSchema) {
        self.schema = schema
        problems = schema.readingProblems
        checkRoots()
        for type in schema.types.values.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
            switch type.kind {
            case .object, .interface: checkFields(type); checkInterfaces(type)
            case .union: checkUnion(type)
            case .enum where type.enumValues.isEmpty: add(type, "Enum type \(type.name) must define one or more values.")
            case .input: checkInput(type)
            default: break
            }
        }
        checkInputCycles()
        problems.sort { ($0.line, $0.column, $0.message) < ($1.line, $1.column, $1.message) }
    }

    private mutating func add(_ line: Int, _ column: Int, _ message: String) {
        problems.append(GraphQLDocumentError(file: schema.file, line: line, column: column, message: message))
    }

    private mutating func add(_ type: GraphQLSchema.TypeDefinition, _ message: String) { add(type.line, type.column, message) }

    private func known(_ name: String) -> Bool { schema.types[name] != nil || GraphQLSchema.builtInScalars.contains(name) }

    private func kind(of name: String) -> GraphQLSchema.Kind? {
        GraphQLSchema.builtInScalars.contains(name) ? .scalar : schema.types[name]?.kind
    }

    private mutating func checkRoots() {
        if schema.roots["query"] == nil { add(1, 1, "Query root type must be provided.") }
        for kind in ["query", "mutation", "subscription"] {
            guard let name = schema.roots[kind] else { continue }
            let place = schema.rootPlaces[kind] ?? (1, 1)
            let title = kind.prefix(1).uppercased() + kind.dropFirst()
            if !known(name) {
                add(place.line, place.column, "Unknown type '\(name)'.")
            } else if self.kind(of: name) != .object {
                let provided = kind == "query" ? "" : " if provided"
                add(place.line, place.column, "\(title) root type must be Object type\(provided), it cannot be \(name).")
            }
        }
    }

    private mutating func checkFields(_ type: GraphQLSchema.TypeDefinition) {
        if type.fields.isEmpty { add(type, "Type \(type.name) must define one or more fields.") }
        for name in type.fieldOrder {
            guard let field = type.fields[name] else { continue }
            let named = field.type.namedType
            if !known(named) {
                add(field.line, field.column, "Unknown type '\(named)'.")
            } else if kind(of: named) == .input {
                add(field.line, field.column, "The type of \(type.name).\(name) must be Output Type but got: \(field.type).")
            }
            for argument in field.arguments {
                checkInputType(argument.type, argument.line, argument.column, "\(type.name).\(name)(\(argument.name):)")
                if argument.deprecated, case .nonNull = argument.type, argument.defaultValue == nil {
                    add(argument.line, argument.column, "Required argument \(type.name).\(name)(\(argument.name):) cannot be deprecated.")
                }
            }
        }
    }

    private mutating func checkInputType(_ type: GraphQLType, _ line: Int, _ column: Int, _ what: String) {
        let named = type.namedType
        if !known(named) {
            add(line, column, "Unknown type '\(named)'.")
        } else if let kind = kind(of: named), ![.scalar, .enum, .input].contains(kind) {
            add(line, column, "The type of \(what) must be Input Type but got: \(type).")
        }
    }

    private mutating func checkInterfaces(_ type: GraphQLSchema.TypeDefinition) {
        var seen: Set<String> = []
        for name in type.interfaces {
            guard known(name) else {
                add(type, "Unknown type '\(name)'.")
                continue
            }
            guard kind(of: name) == .interface, let interface = schema.types[name] else {
                add(type, "Type \(type.name) must only implement Interface types, it cannot implement \(name).")
                continue
            }
            if name == type.name {
                add(type, "Type \(type.name) cannot implement itself because it would create a circular reference.")
                continue
            }
            guard seen.insert(name).inserted else {
                add(type, "Type \(type.name) can only implement \(name) once.")
                continue
            }
            for transitive in interface.interfaces where transitive != type.name && !type.interfaces.contains(transitive) {
                add(type, "Type \(type.name) must implement \(transitive) because it is implemented by \(name).")
            }
            checkImplementation(type, of: interface)
        }
    }

    /// Every field of `interface` in `type`, of a type that is a subtype, with the same arguments.
    private mutating func checkImplementation(_ type: GraphQLSchema.TypeDefinition, of interface: GraphQLSchema.TypeDefinition) {
        for name in interface.fieldOrder {
            guard let expected = interface.fields[name] else { continue }
            guard let field = type.fields[name] else {
                add(type, "Interface field \(interface.name).\(name) expected but \(type.name) does not provide it.")
                continue
            }
            if field.deprecated && !expected.deprecated {
                add(field.line, field.column, "Interface field \(interface.name).\(name) is not deprecated, so implementation field \(type.name).\(name) must not be deprecated.")
            }
            if !isSubtype(field.type, of: expected.type) {
                add(field.line, field.column, "Interface field \(interface.name).\(name) expects type \(expected.type) but \(type.name).\(name) is type \(field.type).")
            }
            for argument in expected.arguments {
                guard let own = field.arguments.first(where: { $0.name == argument.name }) else {
                    add(field.line, field.column, "Interface field argument \(interface.name).\(name)(\(argument.name):) expected but \(type.name).\(name) does not provide it.")
                    continue
                }
                if own.type != argument.type {
                    add(own.line, own.column, "Interface field argument \(interface.name).\(name)(\(argument.name):) expects type \(argument.type) but \(type.name).\(name)(\(argument.name):) is type \(own.type).")
                }
            }
            for own in field.arguments where !expected.arguments.contains(where: { $0.name == own.name }) {
                if case .nonNull = own.type, own.defaultValue == nil {
                    add(own.line, own.column, "Argument '\(type.name).\(name)(\(own.name):)' must not be required type '\(own.type)' if not provided by the Interface field '\(interface.name).\(name)'.")
                }
            }
        }
    }

    /// graphql-core's `is_type_sub_type_of`: covariant output types.
    func isSubtype(_ sub: GraphQLType, of sup: GraphQLType) -> Bool {
        if sub == sup { return true }
        switch (sub, sup) {
        case (.nonNull(let a), .nonNull(let b)): return isSubtype(a, of: b)
        case (_, .nonNull): return false
        case (.nonNull(let a), _): return isSubtype(a, of: sup)
        case (.list(let a), .list(let b)): return isSubtype(a, of: b)
        case (_, .list), (.list, _): return false
        case (.named(let a), .named(let b)):
            guard let abstract = schema.types[b], [.interface, .union].contains(abstract.kind), let concrete = schema.types[a] else { return false }
            return abstract.kind == .union ? abstract.possibleTypes.contains(a) : concrete.interfaces.contains(b)
        }
    }

    private mutating func checkUnion(_ type: GraphQLSchema.TypeDefinition) {
        if type.members.isEmpty { add(type, "Union type \(type.name) must define one or more member types.") }
        for member in type.members {
            if !known(member) {
                add(type, "Unknown type '\(member)'.")
            } else if kind(of: member) != .object {
                add(type, "Union type \(type.name) can only include Object types, it cannot include \(member).")
            }
        }
    }

    private mutating func checkInput(_ type: GraphQLSchema.TypeDefinition) {
        if type.fields.isEmpty { add(type, "Input Object type \(type.name) must define one or more fields.") }
        for name in type.fieldOrder {
            guard let field = type.fields[name] else { continue }
            checkInputType(field.type, field.line, field.column, "\(type.name).\(name)")
            if field.deprecated, case .nonNull = field.type, field.defaultValue == nil {
                add(field.line, field.column, "Required input field \(type.name).\(name) cannot be deprecated.")
            }
        }
    }

    /// Input objects that no finite value can fill: a cycle of non-null, non-list fields back to
    /// where it started. Each cycle once, at the first type (in the file's order) on it, as
    /// graphql-core reports it.
    private mutating func checkInputCycles() {
        var visited: Set<String> = []
        for type in schema.types.values.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) where type.kind == .input {
            findCycles(from: type, &visited)
        }
    }

    /// A depth-first search along non-null input fields from `root`, each type searched once
    /// (`visited`). It keeps its own stack: a chain of 100,000 input types costs memory, not the
    /// thread's stack.
    private mutating func findCycles(from root: GraphQLSchema.TypeDefinition, _ visited: inout Set<String>) {
        guard visited.insert(root.name).inserted else { return }
        // The fields followed to where the search is, and where on that path each type being
        // searched begins.
        var path: [(type: String, field: String)] = []
        var begins: [String: Int] = [root.name: 0]
        var stack: [(type: GraphQLSchema.TypeDefinition, next: Int)] = [(root, 0)]
        while let top = stack.last {
            let (type, next) = top
            guard next < type.fieldOrder.count else {
                stack.removeLast()
                begins[type.name] = nil
                if !stack.isEmpty { path.removeLast() }
                continue
            }
            stack[stack.count - 1].next += 1
            let name = type.fieldOrder[next]
            guard let field = type.fields[name], case .nonNull(.named(let nextName)) = field.type, let target = schema.types[nextName],
                  target.kind == .input else { continue }
            path.append((type.name, name))
            if let begin = begins[nextName] {
                let fields = path[begin...].map { "\($0.type).\($0.field)" }.joined(separator: ", ")
                add(target, "Input Object \(nextName) cannot be provided a finite value because it references itself through fields: \(fields).")
                path.removeLast()
            } else if visited.insert(nextName).inserted {
                begins[nextName] = path.count
                stack.append((target, 0))
            } else {
                path.removeLast()
            }
        }
    }
}
