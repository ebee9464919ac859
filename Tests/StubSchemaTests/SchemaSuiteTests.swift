import Foundation
import StubCore
import StubSchema
import StubTestSupport
import Testing

/// The JSON Schema Test Suite from ../shared/corpus, when the checkout has it beside it: every
/// case of the files for the keywords stubd checks passes (cases needing remote documents are
/// skipped by the runner, with the reason). Without the corpus the suite says it skipped, and
/// fails under CI=true.
@Suite(.requires(.schemaTestSuite))
struct SchemaSuiteTests {
    static let tests = RequiredTool.schemaTestSuiteTests

    static let draft4 = ["additionalItems", "additionalProperties", "allOf", "anyOf", "default", "definitions", "dependencies", "enum", "format",
                         "infinite-loop-detection", "items", "maxItems", "maxLength", "maxProperties", "maximum", "minItems", "minLength",
                         "minProperties", "minimum", "multipleOf", "not", "oneOf", "pattern", "patternProperties", "properties", "ref",
                         "required", "type", "uniqueItems"]
    static let draft2020 = ["additionalProperties", "allOf", "anchor", "anyOf", "boolean_schema", "const", "contains", "content", "default", "defs",
                            "dependentRequired", "dependentSchemas", "dynamicRef", "enum", "exclusiveMaximum", "exclusiveMinimum", "format",
                            "if-then-else", "infinite-loop-detection", "items", "maxContains", "maxItems", "maxLength", "maxProperties", "maximum",
                            "minContains", "minItems", "minLength", "minProperties", "minimum", "multipleOf", "not", "oneOf", "pattern",
                            "patternProperties", "prefixItems", "properties", "propertyNames", "ref", "required", "type", "unevaluatedItems",
                            "unevaluatedProperties", "uniqueItems"]
    static let formats = ["date-time", "date", "time", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid"]

    func run(_ file: String, _ dialect: SchemaDialect, formats: Bool = false) throws -> SchemaSuite.FileResult? {
        guard let data = FileManager.default.contents(atPath: "\(SchemaSuiteTests.tests)/\(file)") else { return nil }
        return try SchemaSuite.run(Array(data), name: file, dialect: dialect, assertFormats: formats)
    }

    @Test func keywordFilesPassWhole() throws {
        var cases = 0
        for (folder, names, dialect) in [("draft4", SchemaSuiteTests.draft4, SchemaDialect.draft4), ("draft2020-12", SchemaSuiteTests.draft2020, .draft2020)] {
            for name in names {
                let result = try #require(try run("\(folder)/\(name).json", dialect, formats: dialect == .draft4 && name == "format"), "\(folder)/\(name).json")
                #expect(result.failures.isEmpty, "\(folder)/\(name).json: \(result.failures.prefix(3))")
                cases += result.cases
            }
        }
        #expect(cases > 1_500)
    }

    @Test func formatFilesPassAtLeast95Percent() throws {
        for (folder, dialect) in [("draft4", SchemaDialect.draft4), ("draft2020-12", .draft2020)] {
            // Draft 4 has no date, time, uri-reference or uuid format files.
            for format in SchemaSuiteTests.formats where dialect == .draft2020 || !["date", "time", "uri-reference", "uuid"].contains(format) {
                let result = try #require(try run("\(folder)/optional/format/\(format).json", dialect, formats: true), "\(folder) \(format)")
                #expect(Double(result.passed) >= 0.95 * Double(result.cases), "\(folder) \(format): \(result.passed)/\(result.cases) \(result.failures.prefix(3))")
            }
        }
    }
}
