import StubCore

/// Checks JSON against JSON Schema as OpenAPI documents use it (draft 4 for OpenAPI 3.0 and
/// Swagger 2.0, 2020-12 for OpenAPI 3.1): every keyword of both drafts but the vocabulary
/// meta-keywords, with messages people read (`expected string (format email), found 42`).
///
/// A convenience over `SchemaCompiler` for one thread: each schema is compiled when first
/// checked, and `$ref` targets once for the validator's lifetime.
package final class SchemaValidator {
    private let compiler: SchemaCompiler
    private var compiled = 0

    /// A validator for `dialect` resolving absolute refs with `resolve`.
    package init(dialect: SchemaDialect = .draft4, assertFormats: Bool = true, resolve: @escaping (String) -> JSONValue? = { _ in nil }) {
        compiler = SchemaCompiler(dialect: dialect, assertFormats: assertFormats, resolve: resolve)
    }

    /// Every problem of `instance` against `schema`; empty when it is valid.
    package func validate(_ instance: JSONValue, against schema: JSONValue, at path: String = "$", base: String = "",
                          budget: SchemaBudget = .files) -> [SchemaProblem] {
        compile(schema, base: base).validate(instance, at: path, budget: budget)
    }

    /// `schema` compiled, for checking many values. Without a `base`, the schema is a document
    /// of its own: `#/$defs/…` refs inside it resolve against it.
    package func compile(_ schema: JSONValue, base: String = "", location: String = "") -> CompiledSchema {
        guard base.isEmpty else { return compiler.compile(schema, base: base, location: location) }
        compiled += 1
        return compiler.compile(schema, base: "urn:stubd:schema-\(compiled)", register: true, location: location)
    }

    /// Patterns that could not be used, one line each.
    package var warnings: [String] { compiler.warnings }

    /// A value for a message: scalars as JSON, containers by kind.
    package static func show(_ value: JSONValue) -> String { SchemaEvaluation.show(value) }
}
