/// One way an instance breaks its schema: where (a JSON path like `$.data.email`) and why
/// (`expected string (format email), found 42`).
package struct SchemaProblem: Sendable, Equatable, CustomStringConvertible {
    /// The JSON path in the instance, from `$`.
    package let path: String
    /// What is wrong.
    package let message: String

    /// A problem.
    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    /// `path: message`.
    package var description: String { "\(path): \(message)" }
}

/// The rules a schema is read by.
package enum SchemaDialect: Sendable {
    /// JSON Schema draft 4, and the schemas of OpenAPI 3.0 and Swagger 2.0: a `$ref` replaces its
    /// siblings, `exclusiveMinimum` is a boolean beside `minimum`, `items` may be a list, `id`.
    case draft4
    /// JSON Schema 2020-12, as OpenAPI 3.1 uses it: `$ref` beside other keywords, `$id`,
    /// `$anchor`, `$dynamicRef`, `prefixItems`, `unevaluated…`.
    case draft2020
}
