import Foundation
import StubCore
import Testing
import StubTestSupport

/// `nullable` where OpenAPI 3.0.3 gives it no meaning (no `type` beside it: next to `anyOf`,
/// `allOf` or `$ref`), and in 3.1, which has no `nullable` at all: a made body holds a value
/// there, which every reading accepts, and null only where nothing else fits.
@Suite(.timeLimit(.minutes(3))) struct NullableBodyTests {
    /// Stripe's shape (`payment_intent.application` and its kin), and the other ways `nullable`
    /// stands without a `type`.
    static let spec30 = """
    openapi: 3.0.0
    info: { title: Nul, version: "1" }
    paths:
      /intent: { get: { operationId: intent, responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/intent" } } } } } } }
    components:
      schemas:
        application:
          type: object
          required: [id, object]
          properties: { id: { type: string, maxLength: 5000 }, object: { type: string, enum: [application] } }
        address:
          type: object
          required: [city]
          properties: { city: { type: string, nullable: true, maxLength: 5000 } }
        intent:
          type: object
          required: [application, shipping, customer, described, impossible, note]
          properties:
            application: { nullable: true, anyOf: [{ type: string, maxLength: 5000 }, { $ref: "#/components/schemas/application" }] }
            customer: { nullable: true, oneOf: [{ $ref: "#/components/schemas/application" }, { type: integer }] }
            shipping: { nullable: true, allOf: [{ $ref: "#/components/schemas/address" }] }
            described: { nullable: true, description: "a $ref beside nullable", allOf: [{ $ref: "#/components/schemas/application" }] }
            impossible: { nullable: true, allOf: [{ type: string, minLength: 5, maxLength: 2 }] }
            note: { type: string, nullable: true }
    """

    static let spec31 = """
    openapi: 3.1.0
    info: { title: Nul, version: "1" }
    paths:
      /thing: { get: { operationId: thing, responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/thing" } } } } } } }
    components:
      schemas:
        thing:
          type: object
          required: [name, either]
          properties:
            name: { type: string, nullable: true }
            either: { type: [integer, "null"] }
    """

    /// The body `import-openapi` makes for `route` from `spec`, after `check --openapi` passes on it.
    func body(_ spec: String, route: String) async throws -> JSONValue {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-nullable-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let file = root.appendingPathComponent("spec.yaml").path
        try Data(spec.utf8).write(to: URL(fileURLWithPath: file))
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await Subprocess.run(Repository.stubdBinary, ["import-openapi", file, "--stubs", stubs.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let check = try await Subprocess.run(Repository.stubdBinary, ["check", stubs.path, "--openapi", file, "--strict"])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        return try JSONParser.parse(Array(try Data(contentsOf: stubs.appendingPathComponent("Nul/\(route)/200.json"))))
    }

    @Test func nullableWithoutATypeGetsAValueFromItsBranches() async throws {
        let intent = try await body(NullableBodyTests.spec30, route: "intent")
        // anyOf: the first branch's value, not null.
        #expect(intent["application"] == .string("string"), "\(intent)")
        // oneOf: the referenced object.
        #expect(intent["customer"]?["object"] == .string("application"), "\(intent)")
        // allOf beside nullable: the part's object; inside it, `nullable` beside a `type` still gives null.
        #expect(intent["shipping"] == .object([("city", .null)]), "\(intent)")
        #expect(intent["described"]?["object"] == .string("application"), "\(intent)")
        // No value fits the part: null, which the lenient reading allows.
        #expect(intent["impossible"] == .null, "\(intent)")
        // `nullable` beside its own `type` in 3.0: null, which every reading allows.
        #expect(intent["note"] == .null, "\(intent)")
    }

    @Test func nullableInA31DocumentIsNotReadAsNull() async throws {
        let thing = try await body(NullableBodyTests.spec31, route: "thing")
        // 3.1 has no `nullable`: a strict reader refuses null for `type: string`.
        #expect(thing["name"] == .string("string"), "\(thing)")
        #expect(thing["either"]?.numberValue != nil, "\(thing)")
    }
}
