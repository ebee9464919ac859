import Foundation
import StubCore
import StubSchema
import Testing

/// Import is never all or nothing: a `oneOf` body is made valid for one option alone (GitHub's
/// 422 shapes, a discriminator), and a response no body can be made for is left out and said so
/// while everything else is written.
@Suite(.timeLimit(.minutes(3))) struct OpenAPIImportBranchTests {
    let helper = OpenAPIImportTests()

    /// GitHub's validation-failed shape: two options alike but for their `errors` items.
    static let overlap = """
    openapi: 3.0.3
    info: {title: OneOf Overlap, version: "1"}
    paths:
      /orgs/{org}:
        patch:
          parameters: [{name: org, in: path, required: true, schema: {type: string}}]
          responses:
            "200": {description: ok, content: {application/json: {schema: {type: object, properties: {login: {type: string}}}}}}
            "422":
              description: Validation failed
              content:
                application/json:
                  schema:
                    oneOf:
                      - {type: object, required: [message, documentation_url], properties: {message: {type: string}, documentation_url: {type: string}, errors: {type: array, items: {type: object, required: [code], properties: {code: {type: string}}}}}}
                      - {type: object, required: [message, documentation_url], properties: {message: {type: string}, documentation_url: {type: string}, errors: {type: array, items: {type: string}}}}
    """

    @Test func aOneOfBodyFitsExactlyOneOptionAndTheImportServesIt() async throws {
        let (_, spec, stubs, result) = try await helper.importing(OpenAPIImportBranchTests.overlap, as: "overlap.yaml", ["--strict"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 written, 0 skipped, 0 warning(s)"), "\(result.stdout)")
        let body = try helper.json(stubs.appendingPathComponent("OneOf-Overlap/patch-orgs-org/422.json"))
        guard case .array(let errors)? = body["errors"], case .object? = errors.first else {
            Issue.record("the 422 body does not pick the first option by its errors: \(body.serialized())")
            return
        }
        let check = try await helper.stubd(["check", stubs.path, "--openapi", spec])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func aDiscriminatorPicksTheOptionsValue() async throws {
        let (_, _, stubs, result) = try await helper.importing("""
        openapi: 3.0.3
        info: {title: Pets, version: "1"}
        paths:
          /pet:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        oneOf: [{$ref: "#/components/schemas/Cat"}, {$ref: "#/components/schemas/Dog"}]
                        discriminator: {propertyName: kind, mapping: {cat: "#/components/schemas/Cat", dog: "#/components/schemas/Dog"}}
        components:
          schemas:
            Cat: {type: object, additionalProperties: false, required: [kind, meows], properties: {kind: {type: string}, meows: {type: boolean}}}
            Dog: {type: object, additionalProperties: false, required: [kind, barks], properties: {kind: {type: string}, barks: {type: boolean}}}
        """, as: "pets.yaml")
        #expect(result.exitCode == 0 && !result.stderr.contains("skipped"), "\(result.stdout)\(result.stderr)")
        let body = try helper.json(stubs.appendingPathComponent("Pets/get-pet/200.json"))
        #expect(body["kind"] == .string("cat") && body["meows"] != nil, "the discriminator's value for the option made: \(body.serialized())")
    }

    @Test func aResponseNoBodyCanFitIsLeftOutAndTheRestIsWritten() async throws {
        // Two identical options: no value is valid for exactly one of them.
        let (root, spec, stubs, result) = try await helper.importing("""
        openapi: 3.0.3
        info: {title: Impossible, version: "1"}
        paths:
          /things:
            get:
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: object, properties: {id: {type: integer}}}}}}
                "409": {description: conflict, content: {application/json: {schema: {oneOf: [{type: string}, {type: string}]}}}}
          /other:
            get:
              responses:
                "200": {description: ok, content: {application/json: {schema: {oneOf: [{type: integer}, {type: integer}]}}}}
        """, as: "impossible.yaml")
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("skipped GET /things → 409 (/paths/~1things/get/responses/409): no body stubd can make fits its schema"),
                "\(result.stderr)")
        #expect(result.stderr.contains("skipped GET /other → 200"), "\(result.stderr)")
        #expect(result.stdout.contains("1 written, 2 skipped"), "\(result.stdout)")
        let route = try helper.json(stubs.appendingPathComponent("Impossible/get-things/route.json"))
        #expect(route["variants"]?["409"] == nil && route["variants"]?["200"] != nil)
        #expect(!FileManager.default.fileExists(atPath: stubs.appendingPathComponent("Impossible/get-other").path))
        // The same with --strict is written too, and exits 1 saying why.
        let strict = try await helper.stubd(["import-openapi", spec, "--stubs", root.appendingPathComponent("Strict").path, "--strict"])
        #expect(strict.exitCode == 1 && strict.stderr.contains("--strict: 2 skipped"), "\(strict.stderr)")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("Strict/Impossible/get-things/200.json").path))
    }
}
