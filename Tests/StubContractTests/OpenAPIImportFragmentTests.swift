import Foundation
import StubCore
import Testing
import StubTestSupport

/// Path keys that carry more than a path. Box's trick of two operations on one path
/// (`/metadata_templates/schema#classifications`): the fragment's operation becomes variants of
/// the path's route, chosen by name, said in a warning. OpenAI's `?beta=true`: variants chosen by
/// `when`. `check --openapi` checks each such variant against its own operation.
@Suite(.timeLimit(.minutes(3))) struct OpenAPIImportFragmentTests {
    let helper = OpenAPIImportTests()

    @Test func theCheckCountsAnOperationImportFoldedByItsQueryAsServed() async throws {
        let (_, spec, stubs, imported) = try await helper.importing("""
        openapi: 3.1.0
        info: { title: Q, version: "1" }
        paths:
          /items?beta=true:
            get: { responses: { "200": { description: ok, content: { application/json: { schema: { type: object, required: [beta], properties: { beta: { type: boolean } } } } } } } }
          /items:
            get: { responses: { "200": { description: ok, content: { application/json: { example: { kind: plain } } } } } }
        """, as: "q.yaml")
        #expect(imported.exitCode == 0)
        let check = try await helper.stubd(["check", stubs.path, "--openapi", spec, "--strict"])
        #expect(check.exitCode == 0 && !check.stderr.contains("has no route"), "\(check.stdout)\(check.stderr)")
    }

    @Test func aFragmentInAPathKeyBecomesVariantsChosenByName() async throws {
        let (_, spec, stubs, result) = try await helper.importing("""
        openapi: 3.0.3
        info: {title: Box Like, version: "1"}
        paths:
          /metadata_templates/schema:
            post:
              operationId: createTemplate
              responses:
                "201": {description: ok, content: {application/json: {schema: {type: object, required: [templateKey], properties: {templateKey: {type: string}}}}}}
          /metadata_templates/schema#classifications:
            post:
              operationId: createClassification
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: object, required: [classification], properties: {classification: {type: integer}}}}}}
          /only#one:
            get:
              responses:
                "200": {description: ok, content: {application/json: {example: {only: true}}}}
        """, as: "box.yaml")
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("POST /metadata_templates/schema  variants: 201, 200-classifications"), "\(result.stdout)")
        #expect(result.stderr.contains("POST /metadata_templates/schema#classifications (/paths/~1metadata_templates~1schema#classifications/post): a fragment is never sent"),
                "\(result.stderr)")
        let check = try await helper.stubd(["check", stubs.path, "--openapi", spec, "--strict"])
        #expect(check.exitCode == 0 && !check.stderr.contains("has no route"), "\(check.stdout)\(check.stderr)")
        try await withServer(stubs: stubs) { server in
            let plain = try await HTTPClient.fetch(server.url("/metadata_templates/schema"), method: "POST")
            let named = try await HTTPClient.fetch(server.url("/metadata_templates/schema"), method: "POST", headers: ["X-Stub-Variant": "200-classifications"])
            #expect(plain.status == 201 && plain.text.contains("templateKey"), "\(plain.status) \(plain.text)")
            #expect(named.status == 200 && named.text.contains("classification"), "\(named.status) \(named.text)")
            // A path with only a fragment-keyed operation answers it by default.
            let only = try await HTTPClient.fetch(server.url("/only"))
            #expect(only.status == 200 && only.text.contains("only"), "\(only.status) \(only.text)")
        }
    }

    @Test func aVariantThatBreaksItsOwnOperationsSchemaIsDrift() async throws {
        let (_, spec, stubs, imported) = try await helper.importing("""
        openapi: 3.0.3
        info: {title: Frag, version: "1"}
        paths:
          /a: {get: {responses: {"200": {description: ok, content: {application/json: {schema: {type: object, properties: {x: {type: string}}}}}}}}}
          /a#b: {get: {responses: {"200": {description: ok, content: {application/json: {schema: {type: object, required: [y], properties: {y: {type: integer}}}}}}}}}
        """, as: "frag.yaml")
        #expect(imported.exitCode == 0)
        // The fragment's variant edited to fit the path's schema but not its own: drift, named.
        try Data(#"{"x": "no y"}"#.utf8).write(to: stubs.appendingPathComponent("Frag/get-a/200-b.json"))
        let check = try await helper.stubd(["check", stubs.path, "--openapi", spec])
        #expect(check.exitCode == 1 && check.stdout.contains("200-b.json") && check.stdout.contains("GET /a#b → 200"), "\(check.stdout)")
    }
}
