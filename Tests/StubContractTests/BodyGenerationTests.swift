import Foundation
import StubCore
import StubSchema
import Testing
import StubTestSupport

/// Bodies `import-openapi` makes from schemas fit them: each case once broke its own document's
/// `check --openapi`.
@Suite(.timeLimit(.minutes(3))) struct BodyGenerationTests {
    static let spec = """
    openapi: 3.1.0
    info: { title: Gen, version: "1" }
    paths:
      /pattern: { get: { operationId: pattern, responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Patterned" } } } } } } }
      /allof: { get: { operationId: allof, responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Merged" } } } } } } }
      /oneof: { get: { operationId: oneof, responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } } } } }
      /sets: { get: { operationId: sets, responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Sets" } } } } } } }
    components:
      schemas:
        Patterned:
          type: object
          required: [url, code, phone, slug]
          properties:
            url: { type: string, pattern: "^/v1/financial_connections/accounts" }
            code: { type: string, pattern: "^[A-Z]{3}-[0-9]{4}$" }
            phone: { type: string, pattern: "^\\\\+[1-9]\\\\d{7,14}$" }
            slug: { type: string, minLength: 12, maxLength: 20, pattern: "^[a-z]+$" }
        Base:
          type: object
          required: [id, kind]
          properties: { id: { type: integer, minimum: 10, multipleOf: 5 } }
        Merged:
          required: [name, id]
          allOf:
            - $ref: "#/components/schemas/Base"
            - type: object
              properties:
                name: { type: string, format: email }
                kind: { type: string, enum: [a, b] }
                when: { type: string, format: date-time }
        Pet:
          type: object
          required: [born]
          properties:
            born: { oneOf: [{ type: string, format: date }, { type: string }] }
        Sets:
          type: object
          minProperties: 3
          required: [tags]
          properties:
            tags: { type: array, minItems: 3, uniqueItems: true, items: { type: string, enum: [red, green, blue, grey] } }
            ids: { type: array, minItems: 2, uniqueItems: true, items: { type: integer } }
            note: { type: string }
            host: { type: string, format: hostname }
    """

    @Test func everyBodyFitsItsSchemaAndTheDocumentChecksClean() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let spec = root.appendingPathComponent("gen.yaml").path
        try Data(BodyGenerationTests.spec.utf8).write(to: URL(fileURLWithPath: spec))
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await Subprocess.run(Repository.stubdBinary, ["import-openapi", spec, "--stubs", stubs.path])
        #expect(result.exitCode == 0 && !result.stderr.contains("does not fit"), "\(result.stderr)")
        let check = try await Subprocess.run(Repository.stubdBinary, ["check", stubs.path, "--openapi", spec, "--strict"])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        func body(_ route: String) throws -> JSONValue { try JSONParser.parse(Array(try Data(contentsOf: stubs.appendingPathComponent("Gen/\(route)/200.json")))) }
        let patterned = try body("pattern")
        #expect(patterned["url"] == .string("/v1/financial_connections/accounts"))
        #expect(try ECMARegex("^[A-Z]{3}-[0-9]{4}$").matches(patterned["code"]?.scalarText ?? ""))
        #expect((patterned["slug"]?.scalarText?.count ?? 0) >= 12)
        // `required` beside the allOf, and a key one part requires that the other describes.
        let merged = try body("allof")
        #expect(merged["id"] == .number(10) && merged["name"] == .string("user@example.com") && merged["kind"] == .string("a"), "\(merged)")
        // A date would match both oneOf branches: the value must match exactly one.
        let pet = try body("oneof")
        #expect(pet["born"] == .string("string"), "\(pet)")
        let sets = try body("sets")
        #expect(sets["tags"] == .array([.string("red"), .string("green"), .string("blue")]), "\(sets)")
        guard case .object(let members) = sets else { Issue.record("not an object"); return }
        #expect(members.count >= 3)
    }
}
