import StubCore

/// An operation document's arguments, variables and directives against the schema, as
/// graphql-core's rules check them: KnownArgumentNames, UniqueArgumentNames,
/// ProvidedRequiredArguments, ValuesOfCorrectType, KnownDirectives, UniqueVariableNames,
/// VariablesAreInputTypes, NoUndefinedVariables, NoUnusedVariables and
/// VariablesInAllowedPosition. Each problem is `file:line:column: message`.
struct GraphQLArgumentCheck: GraphQLDocumentRule {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    var problems: [String] = []
    /// How deep a walk goes, counting each selection set and each fragment spread it follows:
    /// the parser bounds what is written, but a chain of fragments each spreading the next
    /// nests as deep as it is long.
    let depthLimit = GraphQLLimits.defaultDepth
    /// Set where a walk went past `depthLimit`: every walk stops, and that is the one problem.
    private var tooDeep: String?

    /// A variable where a value is expected: of what type, and whether that place has a default.
    struct Usage {
        let name: String
        /// Nil where the place is unknown (an unknown field or argument): the variable counts
        /// as used, but there is no type to fit.
        let type: GraphQLType?
        let placeHasDefault: Bool
        let line: Int
        let column: Int
    }

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for operation in document.operations { check(operation) }
        // A fragment's arguments are checked once, wherever it is spread.
        for fragment in document.fragmentList {
            var ignored: [Usage] = []
            checkDirectives(fragment.directives, report: true, usages: &ignored)
            var visited: Set = [fragment.name]
            walk(fragment.selections, on: schema.compositeName(fragment.typeCondition) ?? "", report: true, usages: &ignored, visited: &visited, depth: 1)
        }
        // What the walks found before they stopped is not the whole story.
        if let tooDeep { problems = [tooDeep] }
    }

    private mutating func check(_ operation: GraphQLOperations.Operation) {
        let named = operation.name.map { " by operation '\($0)'" } ?? ""
        var defined: [String: GraphQLOperations.VariableDefinition] = [:]
        var reported: Set<String> = []
        for variable in operation.variables {
            if let first = defined[variable.name] {
                if reported.insert(variable.name).inserted {
                    add(first.namePlace.line, first.namePlace.column, "There can be only one variable named '$\(variable.name)'.")
                }
            } else {
                defined[variable.name] = variable
            }
            let type = variable.type.namedType
            var none: [Usage] = []
            checkDirectives(variable.directives, report: true, usages: &none)
            if schema.types[type] == nil && !GraphQLSchema.builtInScalars.contains(type) {
                add(variable.namedTypePlace.line, variable.namedTypePlace.column, "Unknown type '\(type)'.")
            } else if let kind = schema.types[type]?.kind, ![.scalar, .enum, .input].contains(kind) {
                add(variable.typePlace.line, variable.typePlace.column, "Variable '$\(variable.name)' cannot be non-input type '\(variable.type)'.")
            } else if let literal = variable.defaultLiteral {
                checkValue(literal, variable.type, placeHasDefault: false, usages: &none)
            }
            if let literal = variable.defaultLiteral { checkUniqueInputFields(literal) }
        }
        var usages: [Usage] = []
        checkDirectives(operation.directives, report: true, usages: &usages)
        // Without a root type the fields are unknown, but the variables they use are used.
        var visited: Set<String> = []
        walk(operation.selections, on: schema.compositeName(schema.root(operation.kind)?.name) ?? "", report: true, usages: &usages, visited: &visited, depth: 1)
        var used: Set<String> = []
        for usage in usages {
            used.insert(usage.name)
            guard let variable = defined[usage.name] else {
                add(usage.line, usage.column, "Variable '$\(usage.name)' is not defined\(named).")
                continue
            }
            // A variable of an unknown type is KnownTypeNames' problem, not a misplaced one.
            let known = schema.types[variable.type.namedType] != nil || GraphQLSchema.builtInScalars.contains(variable.type.namedType)
            if known, let type = usage.type, !allowed(variable, at: type, placeHasDefault: usage.placeHasDefault) {
                add(variable.line, variable.column, "Variable '$\(usage.name)' of type '\(variable.type)' used in position expecting type '\(type)'.")
            }
        }
        for variable in operation.variables where !used.contains(variable.name) {
            let inOperation = operation.name.map { " in operation '\($0)'" } ?? ""
            add(variable.line, variable.column, "Variable '$\(variable.name)' is never used\(inOperation).")
        }
    }

    /// graphql-core's `allowed_variable_usage`: a nullable variable may fill a non-null place
    /// that has a default, or when the variable itself has a non-null default.
    private func allowed(_ variable: GraphQLOperations.VariableDefinition, at type: GraphQLType, placeHasDefault: Bool) -> Bool {
        if case .nonNull(let inner) = type, !isNonNull(variable.type) {
            let variableDefault = variable.defaultValue.map { $0 != .null } ?? false
            guard variableDefault || placeHasDefault else { return false }
            return GraphQLSchemaCheck(schema).isSubtype(variable.type, of: inner)
        }
        return GraphQLSchemaCheck(schema).isSubtype(variable.type, of: type)
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
                let definition = schema.types[typeName].flatMap { GraphQLBodyCheck.field(field.name, of: $0, in: schema) }
                // An unknown field's arguments are not checked against anything, but what they
                // hold is still there: repeated names, variables used.
                checkArguments(field.arguments, against: definition?.arguments, report: report, usages: &usages,
                               unknown: "field '\(typeName).\(field.name)'", required: "\(field.name.hasPrefix("__") ? "<meta>" : typeName).\(field.name)",
                               line: field.line, column: field.column)
                guard !field.selections.isEmpty, mayDescend(from: depth, field.line, field.column) else { continue }
                walk(field.selections, on: schema.compositeName(definition?.type.namedType) ?? "", report: report, usages: &usages, visited: &visited, depth: depth + 1)
            case .spread(let name, let line, let column, let directives, _):
                checkDirectives(directives, report: report, usages: &usages)
                guard !visited.contains(name), let fragment = document.fragments[name], mayDescend(from: depth, line, column) else { continue }
                visited.insert(name)
                walk(fragment.selections, on: schema.compositeName(fragment.typeCondition) ?? "", report: false, usages: &usages, visited: &visited, depth: depth + 1)
            case .inline(let condition, let inner, let line, let column, let directives, _):
                checkDirectives(directives, report: report, usages: &usages)
                guard mayDescend(from: depth, line, column) else { continue }
                walk(inner, on: condition.map { schema.compositeName($0) ?? "" } ?? typeName, report: report, usages: &usages, visited: &visited, depth: depth + 1)
            }
        }
    }

    /// `name` where it is an object, interface or union; "" (no type: graphql-core checks no
    /// field's arguments below it) where it is not.
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
            // An unknown directive is GraphQLDirectiveCheck's problem; its arguments are no one's.
            let definition = schema.directives[directive.name]
            checkArguments(directive.arguments, against: definition?.arguments, report: report, usages: &usages, unknown: "directive '@\(directive.name)'",
                           required: "@\(directive.name)", line: directive.line, column: directive.column)
        }
    }

    /// The arguments of a field or a directive; `defined` is nil where the field or directive is
    /// unknown (another rule's problem): then only what does not depend on it is checked.
    private mutating func checkArguments(_ given: [GraphQLArgument], against defined: [GraphQLInputValue]?, report: Bool, usages: inout [Usage],
                                         unknown: String, required: String, line: Int, column: Int) {
        let problemsBefore = problems.count
        // The repeats first: graphql-core finds them on entering the field or the directive,
        // before its arguments.
        var seen: [String: GraphQLArgument] = [:]
        var repeated: Set<String> = []
        for argument in given {
            if let first = seen[argument.name] {
                if repeated.insert(argument.name).inserted { add(first.line, first.column, "There can be only one argument named '\(argument.name)'.") }
            } else {
                seen[argument.name] = argument
            }
        }
        for argument in given {
            // After the value's own problems, as graphql-core's rules run in that order.
            defer { checkUniqueInputFields(argument.literal) }
            guard let definition = defined?.first(where: { $0.name == argument.name }) else {
                if defined != nil { add(argument.line, argument.column, "Unknown argument '\(argument.name)' on \(unknown).") }
                for (name, line, column) in argument.literal.variables {
                    usages.append(Usage(name: name, type: nil, placeHasDefault: false, line: line, column: column))
                }
                continue
            }
            let before = usages.count
            checkValue(argument.literal, definition.type, placeHasDefault: definition.defaultValue != nil, usages: &usages)
            // A variable where the value is wrong anyway (an unknown input field, an object where
            // a list is expected) is still used.
            let typed = Set(usages[before...].map { "\($0.line):\($0.column)" })
            for (name, line, column) in argument.literal.variables where !typed.contains("\(line):\(column)") {
                usages.append(Usage(name: name, type: nil, placeHasDefault: false, line: line, column: column))
            }
        }
        for definition in defined ?? [] where isNonNull(definition.type) && definition.defaultValue == nil && seen[definition.name] == nil {
            add(line, column, "Argument '\(required)(\(definition.name):)' of type '\(definition.type)' is required, but it was not provided.")
        }
        // A fragment walked for its variables only says nothing here.
        if !report { problems.removeSubrange(problemsBefore...) }
    }
}
