import StubCore

/// Runs files of the JSON Schema Test Suite (json-schema-org/JSON-Schema-Test-Suite) through the
/// validator: each file a list of groups, each group a schema and cases with the expected
/// outcome. Groups that need a document the suite serves from `http://localhost:1234` or a
/// draft's meta-schema are skipped and named, not counted as passes.
package enum SchemaSuite {
    /// One file's result.
    package struct FileResult: Sendable {
        /// The file's name (`ref.json`, `optional/format/email.json`).
        package let name: String
        /// Cases run.
        package var cases = 0
        /// Cases whose outcome was the expected one.
        package var passed = 0
        /// Cases not run, with the reason.
        package var skipped: [String] = []
        /// Cases that failed: `group / case: expected valid, found …`.
        package var failures: [String] = []

        /// An empty result for `name`.
        package init(name: String) { self.name = name }
    }

    /// Runs the suite file `bytes` (named `name`) for `dialect`; `assertFormats` as in the
    /// compiler (the main `format.json` expects format to be an annotation).
    package static func run(_ bytes: [UInt8], name: String, dialect: SchemaDialect, assertFormats: Bool) throws(JSONSyntaxError) -> FileResult {
        var result = FileResult(name: name)
        guard case .array(let groups) = try JSONParser.parse(bytes) else { return result }
        for group in groups {
            let title = group["description"]?.stringValue ?? "?"
            guard let schema = group["schema"], case .array(let cases)? = group["tests"] else { continue }
            if case .string(let meta)? = schema["$schema"], meta.hasPrefix("http://localhost:1234/") {
                for c in cases { result.skipped.append("\(title) / \(c["description"]?.stringValue ?? "?"): needs the custom meta-schema \(meta), a remote document") }
                continue
            }
            let compiler = SchemaCompiler(dialect: dialect, assertFormats: assertFormats)
            let compiled = compiler.compile(schema, base: "urn:stubd:suite-schema", register: true)
            if let remote = compiler.unresolved.first(where: { $0.hasPrefix("http://") || $0.hasPrefix("https://") }) {
                for c in cases {
                    result.skipped.append("\(title) / \(c["description"]?.stringValue ?? "?"): needs \(remote), a remote document the corpus does not hold")
                }
                continue
            }
            for c in cases {
                guard let data = c["data"], case .bool(let expected)? = c["valid"] else { continue }
                result.cases += 1
                let problems = compiled.validate(data)
                if problems.isEmpty == expected {
                    result.passed += 1
                } else {
                    let found = problems.isEmpty ? "valid" : "invalid (\(problems[0]))"
                    result.failures.append("\(title) / \(c["description"]?.stringValue ?? "?"): expected \(expected ? "valid" : "invalid"), found \(found)")
                }
            }
        }
        return result
    }
}
