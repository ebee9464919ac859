import Foundation
import StubCore
import StubSchema
import Testing
import StubTestSupport

/// `import-openapi` on documents shaped like the real ones it failed on: OpenAI's query strings
/// in path keys, DigitalOcean's operations by `$ref` across files, GitHub's example data with
/// `$ref` keys, Swagger 2.0, webhooks and operations without responses, the document's own bad
/// examples, exact numbers, and an import that fails writing nothing.
@Suite(.timeLimit(.minutes(3))) struct OpenAPIImportTests {
    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-oai-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func write(_ text: String, _ name: String, in root: URL) throws -> String {
        let url = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func stubd(_ arguments: [String]) async throws -> Curl.Result { try await Subprocess.run(Repository.stubdBinary, arguments) }

    func json(_ url: URL) throws -> JSONValue { try JSONParser.parse(Array(try Data(contentsOf: url))) }

    @Test func aQueryInAPathKeyBecomesAWhenVariantOfTheSameRoute() async throws {
        let root = try folder()
        let spec = try write("""
        openapi: 3.1.0
        info: { title: Q, version: "1" }
        paths:
          /items:
            get:
              operationId: listItems
              responses: { "200": { description: ok, content: { application/json: { example: { kind: plain } } } } }
          /items?beta=true:
            get:
              operationId: listItemsBeta
              responses: { "200": { description: ok, content: { application/json: { example: { kind: beta } } } } }
        """, "q.yaml", in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await stubd(["import-openapi", spec, "--stubs", stubs.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Q/listItems  GET /items  variants: 200, 200-beta-true"), "\(result.stdout)")
        try await withServer(stubs: stubs) { server in
            let plain = try await HTTPClient.fetch(server.url("/items"))
            let beta = try await HTTPClient.fetch(server.url("/items?beta=true"))
            #expect(plain.text.contains("plain") && beta.text.contains("beta"), "\(plain.text) \(beta.text)")
        }
    }

    @Test func operationsAndPathItemsByRefInOtherFilesAreFollowed() async throws {
        let root = try folder()
        let spec = try write("""
        openapi: 3.0.3
        info: { title: Split, version: "1" }
        servers: [{ url: "https://api.example.com/v2" }]
        paths:
          /droplets:
            get: { $ref: "resources/droplets/list.yml" }
          /droplets/{id}:
            $ref: "resources/droplets/item.yml"
        """, "root.yaml", in: root)
        _ = try write("""
        operationId: droplets_list
        responses:
          "200":
            description: The droplets
            content:
              application/json:
                schema: { $ref: "models/droplet.yml#/list" }
        """, "resources/droplets/list.yml", in: root)
        _ = try write("""
        get:
          operationId: droplets_get
          parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
          responses:
            "200":
              description: One
              content: { application/json: { schema: { $ref: "models/droplet.yml#/droplet" } } }
        """, "resources/droplets/item.yml", in: root)
        _ = try write("""
        droplet: { type: object, required: [id, name], properties: { id: { type: integer, minimum: 1 }, name: { type: string, pattern: "^[a-z]+-[0-9]{2}$" } } }
        list: { type: object, required: [droplets], properties: { droplets: { type: array, items: { $ref: "#/droplet" } } } }
        """, "resources/droplets/models/droplet.yml", in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await stubd(["import-openapi", spec, "--stubs", stubs.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Imported 2 route(s) from 2 operation(s)"), "\(result.stdout)")
        let one = try json(stubs.appendingPathComponent("Split/droplets_get/200.json"))
        guard case .string(let name)? = one["name"] else { Issue.record("no name in \(one)"); return }
        #expect(try ECMARegex("^[a-z]+-[0-9]{2}$").matches(name), "\(name)")
        let check = try await stubd(["check", stubs.path, "--openapi", spec, "--strict"])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
    }

    @Test func exampleDataKeepsItsOwnRefKeysAndNumbersTheirDigits() async throws {
        let root = try folder()
        let spec = try write("""
        {"openapi": "3.0.3", "info": {"title": "Scim", "version": "1"},
         "paths": {"/Groups/{id}": {"get": {"operationId": "getGroup", "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "string"}}],
           "responses": {"200": {"description": "ok", "content": {"application/json": {
             "schema": {"$ref": "#/components/schemas/Group"},
             "examples": {"default": {"value": {"id": 9223372036854775807, "big": 9007199254740993, "ratio": 1.50,
               "members": [{"value": "23a35c27", "$ref": "https://api.example.com/scim/v2/Users/23a35c27"}, {"value": "x", "$ref": "#/components/schemas/Group"}]}}}}}}}}}},
         "components": {"schemas": {"Group": {"type": "object", "properties": {
            "id": {"type": "integer"}, "big": {"type": "integer"}, "ratio": {"type": "number"},
            "members": {"type": "array", "items": {"type": "object", "properties": {"value": {"type": "string"}, "$ref": {"type": "string"}}}}}}}}}
        """, "scim.json", in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await stubd(["import-openapi", spec, "--stubs", stubs.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let text = try String(contentsOf: stubs.appendingPathComponent("Scim/getGroup/200.json"), encoding: .utf8)
        #expect(text.contains(#""id": 9223372036854775807"#) && text.contains(#""big": 9007199254740993"#) && text.contains(#""ratio": 1.50"#), "\(text)")
        #expect(text.contains(#""$ref": "https://api.example.com/scim/v2/Users/23a35c27""#) && text.contains(##""$ref": "#/components/schemas/Group""##), "\(text)")
        #expect(!text.contains(root.path), "a local path leaked into the body:\n\(text)")
    }

    @Test func swagger20DocumentsImportAndServe() async throws {
        let root = try folder()
        let spec = try write("""
        swagger: "2.0"
        info: { title: Pets, version: "1" }
        basePath: /v1
        produces: [application/json]
        paths:
          /pets:
            get:
              operationId: listPets
              parameters: [{ name: limit, in: query, type: integer, maximum: 100 }]
              responses:
                "200": { description: pets, schema: { type: array, items: { $ref: "#/definitions/Pet" } } }
                default: { description: error, schema: { $ref: "#/definitions/Error" } }
            post:
              operationId: addPet
              consumes: [application/x-www-form-urlencoded]
              parameters: [{ name: name, in: formData, type: string, required: true }]
              responses:
                "201": { description: made, schema: { $ref: "#/definitions/Pet" }, examples: { application/json: { id: 7, name: Rex } } }
        definitions:
          Pet: { type: object, required: [id, name], properties: { id: { type: integer, format: int64 }, name: { type: string }, tag: { type: string, x-nullable: true } } }
          Error: { type: object, required: [code, message], properties: { code: { type: integer }, message: { type: string } } }
        """, "swagger.yaml", in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await stubd(["import-openapi", spec, "--stubs", stubs.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        try await withServer(stubs: stubs, configure: { $0.check(against: URL(fileURLWithPath: spec)) }) { server in
            let list = try await HTTPClient.fetch(server.url("/v1/pets"))
            #expect(list.status == 200 && list.text.contains(#""name": "string""#), "\(list.text)")
            let made = try await HTTPClient.fetch(server.url("/v1/pets"), method: "POST", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                  body: Data("name=Rex".utf8))
            #expect(made.status == 201 && made.text.contains("Rex"))
            _ = try await HTTPClient.fetch(server.url("/v1/pets?limit=500"))
            #expect(server.journal().map { $0.contract?.map(\.location) ?? [] } == [[], [], ["$.query.limit"]])
        }
    }

    @Test func webhooksAndOperationsWithoutResponsesAreReportedNotFatal() async throws {
        let root = try folder()
        let hooks = try write("""
        openapi: 3.1.0
        info: { title: Hooks, version: "1" }
        webhooks:
          newPet: { post: { requestBody: { content: { application/json: { schema: { type: object } } } }, responses: { "200": { description: ok } } } }
        """, "hooks.yaml", in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let onlyHooks = try await stubd(["import-openapi", hooks, "--stubs", stubs.path])
        #expect(onlyHooks.exitCode == 0 && onlyHooks.stderr.contains("1 webhook(s) (newPet)") && onlyHooks.stderr.contains("nothing written"), "\(onlyHooks.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stubs.path))
        let mixed = try write("""
        openapi: 3.1.0
        info: { title: Mixed, version: "1" }
        paths:
          /ping: { get: { operationId: ping } }
          /pong: { get: { operationId: pong, responses: { "204": { description: none } } } }
        """, "mixed.yaml", in: root)
        let result = try await stubd(["import-openapi", mixed, "--stubs", stubs.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("skipped GET /ping: no responses; nothing to stub") && result.stdout.contains("Imported 1 route(s) from 2 operation(s)"))
    }

    @Test func theDocumentsOwnBadExampleIsKeptAndReportedNotDrift() async throws {
        let root = try folder()
        let spec = try write("""
        openapi: 3.0.3
        info: { title: Bad, version: "1" }
        paths:
          /me:
            get:
              operationId: me
              responses:
                "200":
                  description: me
                  content:
                    application/json:
                      schema: { type: object, required: [id], properties: { id: { type: integer } } }
                      example: { id: "not a number" }
        """, "bad.yaml", in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await stubd(["import-openapi", spec, "--stubs", stubs.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains(##"Bad/me/200.json: the document's own example at /paths/~1me/get/responses/200/content/application~1json/example does not fit its schema: $.id: expected integer, found "not a number""##),
                "\(result.stderr)")
        #expect(result.stdout.contains("but for 1 problem(s) in the document's own examples"))
        let check = try await stubd(["check", stubs.path, "--openapi", spec])
        #expect(check.exitCode == 0 && check.stderr.contains("does not fit its schema"), "\(check.stdout)\(check.stderr)")
    }

    @Test func aFailedImportWritesNothing() async throws {
        let root = try folder()
        let stubs = root.appendingPathComponent("Stubs")
        try FileManager.default.copyItem(at: Repository.shippedStubs.appendingPathComponent("app"), to: stubs.appendingPathComponent("app"))
        let before = try FileManager.default.subpathsOfDirectory(atPath: stubs.path).sorted()
        // GET /api/v1/users is the shipped app's: the imported route clashes with it when loaded together.
        let spec = try write("""
        openapi: 3.0.3
        info: { title: Clash, version: "1" }
        servers: [{ url: /api/v1 }]
        paths:
          /users: { get: { responses: { "200": { description: ok } } } }
          /other: { get: { responses: { "200": { description: ok } } } }
        """, "clash.yaml", in: root)
        let result = try await stubd(["import-openapi", spec, "--stubs", stubs.path])
        #expect(result.exitCode == 1 && result.stderr.contains("is defined twice") && result.stderr.contains("nothing written"), "\(result.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: stubs.path).sorted() == before)
    }

    @Test func refsStayInsideTheDocumentsFolderUnlessWidened() async throws {
        let root = try folder()
        _ = try write("Thing: { type: object, properties: { a: { type: string } } }\n", "common/thing.yaml", in: root)
        let spec = try write("""
        openapi: 3.0.3
        info: { title: Out, version: "1" }
        paths:
          /t: { get: { responses: { "200": { description: ok, content: { application/json: { schema: { $ref: "../common/thing.yaml#/Thing" } } } } } } }
        """, "spec/out.yaml", in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let refused = try await stubd(["import-openapi", spec, "--stubs", stubs.path])
        #expect(refused.exitCode == 1 && refused.stderr.contains("leaves the document's folder") && refused.stderr.contains("--spec-root"), "\(refused.stderr)")
        let widened = try await stubd(["import-openapi", spec, "--stubs", stubs.path, "--spec-root", root.path])
        #expect(widened.exitCode == 0, "\(widened.stderr)")
        for ref in ["file:///etc/passwd", "HTTP://example.com/x.yaml", "/proc/self/environ", "../../../../etc/passwd#/root"] {
            let bad = try write("openapi: 3.0.3\ninfo: { title: B, version: '1' }\npaths:\n  /b: { get: { responses: { '200': { $ref: '\(ref)' } } } }\n", "spec/bad.yaml", in: root)
            let result = try await stubd(["import-openapi", bad, "--stubs", stubs.path, "--overwrite"])
            let refused = ["is neither a file nor an http(s) URL", "which is not fetched", "leaves the document's folder"]
            #expect(result.exitCode == 1 && refused.contains { result.stderr.contains($0) }, "\(ref): \(result.stderr)")
        }
    }
}
