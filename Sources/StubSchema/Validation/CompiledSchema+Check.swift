import StubCore

extension CompiledSchema {
    /// Every problem of `instance`; empty when it is valid. `path` names the instance's root in
    /// messages (`$`, `$.body`).
    package func validate(_ instance: JSONValue, at path: String = "$", budget: SchemaBudget = .files) -> [SchemaProblem] {
        var evaluation = SchemaEvaluation(root: path, arena: arena, budget: budget)
        var problems: [SchemaProblem]? = []
        _ = evaluation.check(root, instance, &problems)
        if evaluation.exhausted {
            let limit = budget.milliseconds.map { "\($0) ms or \(budget.steps) steps" } ?? "\(budget.steps) steps"
            return [SchemaProblem(path: path, message: "checking stopped: the schema needs more than \(limit) for this value (it branches too much)")]
        }
        return problems ?? []
    }

    /// True when `instance` is valid (stops at the first problem).
    package func isValid(_ instance: JSONValue, budget: SchemaBudget = .files) -> Bool {
        var evaluation = SchemaEvaluation(root: "$", arena: arena, budget: budget)
        var quiet: [SchemaProblem]?
        return evaluation.check(root, instance, &quiet) != nil && !evaluation.exhausted
    }
}

extension SchemaEvaluation {
    /// Checks `instance` against `node`: the annotations when it holds, nil when it does not.
    /// With `problems` nil, stops at the first failure without writing a message.
    mutating func check(_ node: SchemaNode, _ instance: JSONValue, _ problems: inout [SchemaProblem]?) -> Annotations? {
        guard step() else { return nil }
        if let always = node.always {
            if always { return Annotations() }
            fail(&problems, "no value is allowed here")
            return nil
        }
        guard depth < 200 else {
            fail(&problems, "schema nests too deeply (a $ref cycle?)")
            return nil
        }
        depth += 1
        defer { depth -= 1 }
        let entered = node.resource.map { resource -> Bool in
            scope.append(resource)
            return true
        } ?? false
        defer { if entered { scope.removeLast() } }

        var annotations = Annotations()
        var valid = true
        if node.refMissing {
            fail(&problems, "cannot resolve \(node.refText ?? "")")
            return nil
        }
        if let target = node.ref {
            guard let more = check(target, instance, &problems) else { return nil }
            annotations.merge(more)
        }
        if let name = node.dynamicAnchorRef ?? (node.dynamicFallback != nil ? "" : nil) {
            guard let target = dynamicTarget(name, fallback: node.dynamicFallback), let more = check(target, instance, &problems) else { return nil }
            annotations.merge(more)
        }
        if case .null = instance, node.nullable { return annotations }
        if let types = node.types, !typeHolds(types, node: node, instance) {
            if problems != nil {
                let format = node.format.map { " (format \($0))" } ?? ""
                fail(&problems, "expected \((types + (node.nullable ? ["null"] : [])).joined(separator: " or "))\(format), found \(SchemaEvaluation.show(instance))")
            }
            return nil
        }
        if let values = node.enumValues, !values.contains(where: { JSONEquality.same($0, instance) }) {
            valid = false
            if !fail(&problems, "\(SchemaEvaluation.show(instance)) is not one of \(values.map(SchemaEvaluation.show).joined(separator: ", "))") { return nil }
        }
        if let constant = node.constValue, !JSONEquality.same(constant, instance) {
            valid = false
            if !fail(&problems, "expected \(SchemaEvaluation.show(constant)), found \(SchemaEvaluation.show(instance))") { return nil }
        }
        if !applicators(node, instance, &problems, &annotations) {
            valid = false
            if problems == nil { return nil }
        }
        let kindValid: Bool
        switch instance {
        case .number(let n): kindValid = numberHolds(node, n, &problems)
        case .string(let s): kindValid = stringHolds(node, s, &problems)
        case .array(let items): kindValid = arrayHolds(node, items, &problems, &annotations)
        case .object(let members): kindValid = objectHolds(node, members, &problems, &annotations)
        default: kindValid = true
        }
        guard valid && kindValid else { return nil }
        return annotations
    }

    /// Records a problem at the current path when collecting; false when not collecting (stop).
    @discardableResult
    mutating func fail(_ problems: inout [SchemaProblem]?, _ message: @autoclosure () -> String) -> Bool {
        guard problems != nil else { return false }
        problems?.append(SchemaProblem(path: path, message: message()))
        return true
    }

    private func dynamicTarget(_ name: String, fallback: SchemaNode?) -> SchemaNode? {
        guard !name.isEmpty, let candidates = arena.dynamicAnchors[name] else { return fallback }
        for resource in scope {
            if let found = candidates.first(where: { $0.resource == resource }) { return found.node }
        }
        return fallback
    }

    private func typeHolds(_ types: [String], node: SchemaNode, _ instance: JSONValue) -> Bool {
        types.contains { type in
            switch (type, instance) {
            case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): return true
            case ("integer", .number(let n)): return n.isInteger
            default: return false
            }
        }
    }

    /// `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`.
    private mutating func applicators(_ node: SchemaNode, _ instance: JSONValue, _ problems: inout [SchemaProblem]?, _ annotations: inout Annotations) -> Bool {
        var valid = true
        for part in node.allOf {
            if let more = check(part, instance, &problems) { annotations.merge(more) } else {
                valid = false
                if problems == nil { return false }
            }
        }
        if !node.anyOf.isEmpty {
            var matched = false
            for option in node.anyOf {
                var quiet: [SchemaProblem]?
                if let more = check(option, instance, &quiet) {
                    matched = true
                    annotations.merge(more)
                    // Annotations need every branch that holds; otherwise the first will do.
                    if !arena.tracksAnnotations { break }
                }
                if exhausted { return false }
            }
            if !matched {
                valid = false
                if !fail(&problems, "matches none of the \(node.anyOf.count) anyOf schemas") { return false }
            }
        }
        if !node.oneOf.isEmpty {
            var matching = 0
            var kept = Annotations()
            for option in node.oneOf {
                var quiet: [SchemaProblem]?
                if let more = check(option, instance, &quiet) { matching += 1; kept = more }
                if exhausted { return false }
            }
            if matching == 1 { annotations.merge(kept) } else {
                valid = false
                let message = matching == 0 ? "matches none of the \(node.oneOf.count) oneOf schemas" : "matches \(matching) of the oneOf schemas, expected exactly one"
                if !fail(&problems, message) { return false }
            }
        }
        if let not = node.not {
            var quiet: [SchemaProblem]?
            if check(not, instance, &quiet) != nil {
                valid = false
                if !fail(&problems, "matches the schema under \"not\"") { return false }
            }
            if exhausted { return false }
        }
        if let condition = node.ifSchema {
            var quiet: [SchemaProblem]?
            let branch: SchemaNode?
            if let more = check(condition, instance, &quiet) {
                annotations.merge(more)
                branch = node.thenSchema
            } else {
                branch = node.elseSchema
            }
            if exhausted { return false }
            if let branch {
                if let more = check(branch, instance, &problems) { annotations.merge(more) } else { valid = false }
            }
        }
        return valid
    }

    /// A value for a message: scalars as JSON (long ones cut), containers by kind; control
    /// characters escaped, so a problem is always one line.
    static func show(_ value: JSONValue) -> String {
        switch value {
        case .array, .object: return value.kindDescription
        default:
            let text = value.serialized()
            return text.count > 60 ? String(text.prefix(57)) + "…" : text
        }
    }
}
