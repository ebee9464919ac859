/// One way an instance breaks its schema: where (a JSON path like `$.data.email`) and why
/// (`expected string (format email), found 42`).
public struct SchemaProblem: Sendable, Equatable, CustomStringConvertible {
    /// The JSON path in the instance, from `$`.
    public let path: String
    /// What is wrong.
    public let message: String

    /// A problem.
    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    public var description: String { "\(path): \(message)" }
}

/// Validates JSON against the JSON Schema that OpenAPI 3.0 and 3.1 use: `type` (and 3.1 type
/// arrays), `nullable` (3.0), `properties`, `required`, `additionalProperties`, `items`, `enum`,
/// `const`, `allOf`, `oneOf`, `anyOf`, `not`, `minimum`/`maximum` and their exclusive forms (3.0
/// booleans and 3.1 numbers), `minLength`/`maxLength`, `pattern`, `minItems`/`maxItems`, and
/// `format` for `date-time`, `date`, `uuid`, `email`, `uri`, `int32` and `int64`. Other keywords
/// are ignored. `$ref`s are resolved through `resolve`.
package struct SchemaValidator: Sendable {
    /// The schema a `$ref` names, or nil when it cannot be found.
    let resolve: @Sendable (String) -> JSONValue?

    /// A validator resolving references with `resolve`.
    package init(resolve: @escaping @Sendable (String) -> JSONValue?) {
        self.resolve = resolve
    }

    /// Every problem of `instance` against `schema`; empty when it is valid.
    package func validate(_ instance: JSONValue, against schema: JSONValue, at path: String = "$") -> [SchemaProblem] {
        validate(instance, schema, path, depth: 0)
    }

    func validate(_ instance: JSONValue, _ schema: JSONValue, _ path: String, depth: Int) -> [SchemaProblem] {
        guard depth < 64 else { return [SchemaProblem(path: path, message: "schema nests too deeply (a $ref cycle?)")] }
        switch schema {
        case .bool(let allowed): return allowed ? [] : [SchemaProblem(path: path, message: "no value is allowed here")]
        case .object: break
        default: return []
        }
        if case .string(let ref)? = schema["$ref"] {
            guard let target = resolve(ref) else { return [SchemaProblem(path: path, message: "cannot resolve \(ref)")] }
            return validate(instance, target, path, depth: depth + 1)
        }
        if case .null = instance, schema["nullable"] == .bool(true) { return [] }
        if let problem = typeProblem(instance, schema, path) { return [problem] }
        var problems: [SchemaProblem] = []
        if case .array(let options)? = schema["enum"], !options.contains(where: { SchemaValidator.same($0, instance) }) {
            problems.append(SchemaProblem(path: path, message: "\(SchemaValidator.show(instance)) is not one of \(options.map(SchemaValidator.show).joined(separator: ", "))"))
        }
        if let constant = schema["const"], !SchemaValidator.same(constant, instance) {
            problems.append(SchemaProblem(path: path, message: "expected \(SchemaValidator.show(constant)), found \(SchemaValidator.show(instance))"))
        }
        problems += combinators(instance, schema, path, depth: depth)
        switch instance {
        case .number(let n): problems += numberProblems(n, schema, path)
        case .string(let s): problems += stringProblems(s, schema, path)
        case .array(let items): problems += arrayProblems(items, schema, path, depth: depth)
        case .object(let members): problems += objectProblems(members, schema, path, depth: depth)
        default: break
        }
        return problems
    }

    private func combinators(_ instance: JSONValue, _ schema: JSONValue, _ path: String, depth: Int) -> [SchemaProblem] {
        var problems: [SchemaProblem] = []
        if case .array(let all)? = schema["allOf"] {
            for part in all { problems += validate(instance, part, path, depth: depth + 1) }
        }
        if case .array(let any)? = schema["anyOf"], !any.contains(where: { validate(instance, $0, path, depth: depth + 1).isEmpty }) {
            problems.append(SchemaProblem(path: path, message: "matches none of the \(any.count) anyOf schemas"))
        }
        if case .array(let one)? = schema["oneOf"] {
            let matching = one.filter { validate(instance, $0, path, depth: depth + 1).isEmpty }.count
            if matching != 1 {
                problems.append(SchemaProblem(path: path, message: matching == 0 ? "matches none of the \(one.count) oneOf schemas"
                                              : "matches \(matching) of the oneOf schemas, expected exactly one"))
            }
        }
        if let not = schema["not"], validate(instance, not, path, depth: depth + 1).isEmpty {
            problems.append(SchemaProblem(path: path, message: "matches the schema under \"not\""))
        }
        return problems
    }

    /// A mismatch of `type`, with the format named when there is one.
    private func typeProblem(_ instance: JSONValue, _ schema: JSONValue, _ path: String) -> SchemaProblem? {
        var types: [String]
        switch schema["type"] {
        case .string(let t)?: types = [t]
        case .array(let list)?: types = list.compactMap { if case .string(let t) = $0 { return t } else { return nil } }
        default: return nil
        }
        if schema["nullable"] == .bool(true) { types.append("null") }
        guard !types.contains(where: { SchemaValidator.has(instance, type: $0) }) else { return nil }
        let format = schema["format"]?.scalarText.map { " (format \($0))" } ?? ""
        return SchemaProblem(path: path, message: "expected \(types.joined(separator: " or "))\(format), found \(SchemaValidator.show(instance))")
    }

    static func has(_ instance: JSONValue, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): return true
        case ("integer", .number(let n)): return n.rounded() == n
        default: return false
        }
    }
}
