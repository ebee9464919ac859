import StubCore

/// An operation document's arguments, variables and directives against the schema, as
/// graphql-core's rules check them: KnownArgumentNames, UniqueArgumentNames,
/// ProvidedRequiredArguments, ValuesOfCorrectType, KnownDirectives, UniqueVariableNames,
/// VariablesAreInputTypes, NoUndefinedVariables, NoUnusedVariables and
/// VariablesInAllowedPosition. Each problem is `file:line:column: message`.
struct GraphQLArgumentCheck {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    private(set) var problems: [String] = []
    /// How deep a walk goes, counting each selection set and each fragment spread it follows:
    /// the parser bounds what is written, but a chain of fragments each spreading the next
    /// nests as deep as it is long.
    let depthLimit = GraphQLLimits.defaultDepth
    /// Set where a walk went past `depthLimit`: every walk stops, and that is the one problem.
    private var tooDeep: String?

    /// A variable where a value is expected: of what type, and whether that place has a default.
    struct Usage {
        let name: String
        let type: GraphQLType
        let placeHasDefault: Bool
        let line: Int
        let column: Int
    }

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for operation in document.operations { check(operation) }
        // A fragment's arguments are checked once, wherever it is spread.
        for fragment in document.fragments.values.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
            var ignored: [Usage] = []
            var visited: Set = [fragment.name]
            walk(fragment.selections, on: fragment.typeCondition, report: true, usages: &ignored, visited: &visited, depth: 1)
        }
        // What the walks found before they stopped is not the whole story.
        if let tooDeep { problems = [tooDeep] }
    }

    mutating func add(_ line: Int, _ column: Int, _ message: String) {
        problems.append("\(document.file):\(line):\(column): \(message)")
    }

    private mutating func check(_ operation: GraphQLOperations.Operation) {
        let named = operation.name.map { " by operation '\($0)'" } ?? ""
        var defined: [String: GraphQLOperations.VariableDefinition] = [:]
        for variable in operation.variables {
            if defined[variable.name] != nil { add(variable.line, variable.column, "There can be only one variable named '$\(variable.name)'.") }
            defined[variable.name] = variable
            let type = variable.type.namedType
            if schema.types[type] == nil && !GraphQLSchema.builtInScalars.contains(type) {
                add(variable.line, variable.column, "Unknown type '\(type)'.")
            } else if let kind = schema.types[type]?.kind, ![.scalar, .enum, .input].contains(kind) {
                add(variable.line, variable.column, "Variable '$\(variable.name)' cannot be non-input type '\(variable.type)'.")
            } else if let value = variable.defaultValue {
                var none: [Usage] = []
                checkValue(value, variable.type, placeHasDefault: false, line: variable.line, column: variable.column, usages: &none)
            }
        }
        var usages: [Usage] = []
        checkDirectives(operation.directives, report: true, usages: &usages)
        if let root = schema.root(operation.kind) {
            var visited: Set<String> = []
            walk(operation.selections, on: root.name, report: true, usages: &usages, visited: &visited, depth: 1)
        }
        var used: Set<String> = []
        for usage in usages {
            used.insert(usage.name)
            guard let variable = defined[usage.name] else {
                add(usage.line, usage.column, "Variable '$\(usage.name)' is not defined\(named).")
                continue
            }
            if !allowed(variable, at: usage) {
                add(usage.line, usage.column, "Variable '$\(usage.name)' of type '\(variable.type)' used in position expecting type '\(usage.type)'.")
            }
        }
        for variable in operation.variables where !used.contains(variable.name) {
            let inOperation = operation.name.map { " in operation '\($0)'" } ?? ""
            add(variable.line, variable.column, "Variable '$\(variable.name)' is never used\(inOperation).")
        }
    }

    /// graphql-core's `allowed_variable_usage`: a nullable variable may fill a non-null place
    /// that has a default, or when the variable itself has a non-null default.
    private func allowed(_ variable: GraphQLOperations.VariableDefinition, at usage: Usage) -> Bool {
        if case .nonNull(let inner) = usage.type, !isNonNull(variable.type) {
            let variableDefault = variable.defaultValue.map { $0 != .null } ?? false
            guard variableDefault || usage.placeHasDefault else { return false }
            return GraphQLSchemaCheck(schema).isSubtype(variable.type, of: inner)
        }
        return GraphQLSchemaCheck(schema).isSubtype(variable.type, of: usage.type)
    }

    private func isNonNull(_ type: GraphQLType) -> Bool {
        if case .nonNull = type { return true }
        return false
    }

    /// Checks the fields below `typeName`, a selection set `depth` levels down; follows spreads
    /// for the variables they use, reporting their arguments only where `report` says. A
    /// fragment is followed once per walk (`visited`): what it uses does not depend on where it
    /// is spread, and a fragment spread from many places is not walked as many times over.
    private mutating func walk(_ selections: [GraphQLOperations.Selection], on typeName: String, report: Bool, usages: inout [Usage],
                               visited: inout Set<String>, depth: Int) {
        for selection in selections {
            switch selection {
            case .field(let field):
                checkDirectives(field.directives, report: report, usages: &usages)
                guard let type = schema.types[typeName], let definition = GraphQLBodyCheck.field(field.name, of: type, in: schema) else { continue }
                checkArguments(field.arguments, against: definition.arguments, report: report, usages: &usages,
                               unknown: "field '\(typeName).\(field.name)'", required: "\(typeName).\(field.name)", line: field.line, column: field.column)
                guard !field.selections.isEmpty, mayDescend(from: depth, field.line, field.column) else { continue }
                walk(field.selections, on: definition.type.namedType, report: report, usages: &usages, visited: &visited, depth: depth + 1)
            case .spread(let name, let line, let column, let directives):
                checkDirectives(directives, report: report, usages: &usages)
                guard !visited.contains(name), let fragment = document.fragments[name], mayDescend(from: depth, line, column) else { continue }
                visited.insert(name)
                walk(fragment.selections, on: fragment.typeCondition, report: false, usages: &usages, visited: &visited, depth: depth + 1)
            case .inline(let condition, let inner, let line, let column, let directives):
                checkDirectives(directives, report: report, usages: &usages)
                guard mayDescend(from: depth, line, column) else { continue }
                walk(inner, on: condition ?? typeName, report: report, usages: &usages, visited: &visited, depth: depth + 1)
            }
        }
    }

    /// Whether a walk `depth` levels down may go one further, at `line:column`. The first time
    /// it may not is the document's problem, and every walk stops.
    private mutating func mayDescend(from depth: Int, _ line: Int, _ column: Int) -> Bool {
        guard tooDeep == nil else { return false }
        guard depth >= depthLimit else { return true }
        tooDeep = "\(document.file):\(line):\(column): nesting deeper than \(depthLimit) levels once fragment spreads are followed "
            + "(each selection set and each spread is a level)"
        return false
    }

    private mutating func checkDirectives(_ directives: [GraphQLDirective], report: Bool, usages: inout [Usage]) {
        for directive in directives {
            guard let arguments = schema.directives[directive.name] else {
                if report { add(directive.line, directive.column, "Unknown directive '@\(directive.name)'.") }
                continue
            }
            checkArguments(directive.arguments, against: arguments, report: report, usages: &usages, unknown: "directive '@\(directive.name)'",
                           required: "@\(directive.name)", line: directive.line, column: directive.column)
        }
    }

    private mutating func checkArguments(_ given: [GraphQLArgument], against defined: [GraphQLInputValue], report: Bool, usages: inout [Usage],
                                         unknown: String, required: String, line: Int, column: Int) {
        let problemsBefore = problems.count
        var seen: Set<String> = []
        for argument in given {
            if !seen.insert(argument.name).inserted { add(argument.line, argument.column, "There can be only one argument named '\(argument.name)'.") }
            guard let definition = defined.first(where: { $0.name == argument.name }) else {
                add(argument.line, argument.column, "Unknown argument '\(argument.name)' on \(unknown).")
                continue
            }
            checkValue(argument.value, definition.type, placeHasDefault: definition.defaultValue != nil, line: argument.line, column: argument.column,
                       usages: &usages)
        }
        for definition in defined where isNonNull(definition.type) && definition.defaultValue == nil && !seen.contains(definition.name) {
            add(line, column, "Argument '\(required)(\(definition.name):)' of type '\(definition.type)' is required, but it was not provided.")
        }
        // A fragment walked for its variables only says nothing here.
        if !report { problems.removeSubrange(problemsBefore...) }
    }
}
