import Foundation
import StubContract
import StubCore
import StubServer
import StubTestSupport
import Testing

/// Shapes met in real documents (issue 57's conformance and Schemathesis runs): a Swagger 2.0
/// operation that produces a JSON stream or an image only (Nakadi, pagoPA), a path key without
/// its leading `/` (pagoPA's notification API), error responses of a `+json` type behind the
/// service's envelope, and refusals under `--openapi-enforce` with a status the operation
/// documents.
@Suite(.timeLimit(.minutes(3))) struct OpenAPIRealShapesTests {
    static let swagger = """
    swagger: "2.0"
    info: { title: Shapes, version: "1" }
    basePath: /api
    produces: [application/json]
    paths:
      /events:
        get:
          operationId: streamEvents
          produces: [application/x-json-stream]
          responses:
            "200": { description: a batch, schema: { type: object, required: [cursor], properties: { cursor: { type: string } } } }
      /logo:
        get:
          operationId: logo
          produces: [image/png]
          responses:
            "200": { description: the logo, schema: { type: file } }
      /distances:
        post:
          operationId: distances
          responses:
            "200": { description: ok, schema: { type: array, items: { type: object, required: [distance], properties: { distance: { type: number, format: int64 } } } } }
      delivery/notifications/{iun}:
        get:
          operationId: getNotification
          parameters: [{ name: iun, in: path, required: true, type: string }]
          responses:
            "200": { description: ok, schema: { type: object, properties: { iun: { type: string } } } }
    """

    /// Two operations answer errors in `{"error": Error}`, the service's envelope; `createRun`
    /// documents its 400 as a bare `Error`, as OpenAI's `POST /evals/{eval_id}/runs` does.
    static let bareError = """
    openapi: 3.0.3
    info: { title: Bare, version: "1" }
    paths:
      /models:
        get:
          operationId: listModels
          responses:
            "200": { description: ok, content: { application/json: { schema: { type: object } } } }
            "400": { description: bad, content: { application/json: { schema: { $ref: "#/components/schemas/ErrorResponse" } } } }
      /files:
        get:
          operationId: listFiles
          responses:
            "200": { description: ok, content: { application/json: { schema: { type: object } } } }
            "400": { description: bad, content: { application/json: { schema: { $ref: "#/components/schemas/ErrorResponse" } } } }
      /runs:
        post:
          operationId: createRun
          parameters: [{ name: limit, in: query, required: true, schema: { type: integer } }]
          responses:
            "201": { description: made, content: { application/json: { schema: { type: object } } } }
            "400": { description: bad, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
    components:
      schemas:
        Error:
          type: object
          required: [message, type]
          additionalProperties: false
          properties: { message: { type: string }, type: { type: string, enum: [invalid_request_error] } }
        ErrorResponse: { type: object, required: [error], properties: { error: { $ref: "#/components/schemas/Error" } } }
    """

    static let problems = """
    openapi: 3.0.3
    info: { title: Problems, version: "1" }
    paths:
      /things/{id}:
        get:
          operationId: getThing
          parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
          responses:
            "200": { description: ok, content: { application/json: { schema: { type: object } } } }
            "404": { description: missing, content: { application/problem+json: { schema: { $ref: "#/components/schemas/Problem" } } } }
            "422": { description: invalid, content: { application/problem+json: { schema: { $ref: "#/components/schemas/Problem" } } } }
    components:
      schemas:
        Problem: { type: object, properties: { title: { type: string }, detail: { type: string } } }
    """

    /// `text` imported in process into a new folder's `Stubs`: (folder, document path, files).
    static func imported(_ text: String) throws -> (root: URL, spec: String, files: [String: [UInt8]]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-shapes-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let spec = root.appendingPathComponent("api.yaml")
        try Data(text.utf8).write(to: spec)
        var files: [String: [UInt8]] = [:]
        for file in OpenAPIImporter(try OpenAPIDocument(path: spec.path)).files {
            files[file.path] = file.bytes
            let url = root.appendingPathComponent("Stubs").appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        return (root, spec.path, files)
    }

    static func variant(_ files: [String: [UInt8]], _ route: String, _ name: String) throws -> JSONValue? {
        try JSONParser.parse(try #require(files[route + "/route.json"]))["variants"]?[name]
    }

    @Test func aSwaggerJSONStreamIsSentAsTheTypeItProduces() throws {
        let (root, _, files) = try Self.imported(Self.swagger)
        defer { try? FileManager.default.removeItem(at: root) }
        let body = try JSONParser.parse(try #require(files["Shapes/streamEvents/200.json"]))
        #expect(body["cursor"] != nil)
        #expect(try Self.variant(files, "Shapes/streamEvents", "200")?["headers"]?["Content-Type"]?.scalarText == "application/x-json-stream")
    }

    @Test func aSwaggerImageIsABodyOfItsType() throws {
        let (root, _, files) = try Self.imported(Self.swagger)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(files["Shapes/logo/200.png"]?.starts(with: [0x89, 0x50, 0x4E, 0x47]) == true)
        #expect(files["Shapes/logo/200.json"] == nil)
    }

    @Test func aNumberOfAnIntegerFormatIsMadeWhole() throws {
        let (root, _, files) = try Self.imported(Self.swagger)
        defer { try? FileManager.default.removeItem(at: root) }
        guard case .array(let items) = try JSONParser.parse(try #require(files["Shapes/distances/200.json"])) else {
            Issue.record("expected an array")
            return
        }
        let distance = try #require(items.first?["distance"]?.numberValue)
        #expect(distance == distance.rounded())
    }

    @Test func aPathKeyWithoutItsSlashIsReadWithOne() throws {
        let (root, spec, files) = try Self.imported(Self.swagger)
        defer { try? FileManager.default.removeItem(at: root) }
        let route = try JSONParser.parse(try #require(files["Shapes/getNotification/route.json"]))
        #expect(route["path"]?.scalarText == "/delivery/notifications/{iun}")
        // The stubs load, and match the document they came from.
        let catalog = try StubLoader.load(directory: root.appendingPathComponent("Stubs").path).get()
        let drift = DriftCheck(catalog: catalog, document: try OpenAPIDocument(path: spec))
        #expect(!drift.warnings.contains { $0.contains("getNotification") }, "\(drift.warnings)")
    }

    @Test func anEnvelopedErrorIsSentAsItsDocumentedType() async throws {
        let (root, _, files) = try Self.imported(Self.problems)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try Self.variant(files, "Problems/getThing", "404")?["error"] != nil)
        #expect(try Self.variant(files, "Problems/getThing", "404")?["headers"]?["Content-Type"]?.scalarText == "application/problem+json")
        try await withServer(stubs: root.appendingPathComponent("Stubs")) { server in
            let answer = try await HTTPClient.fetch(server.url("/things/1"), headers: ["X-Stub-Variant": "404"])
            #expect(answer.status == 404)
            #expect(answer.header("Content-Type") == "application/problem+json")
        }
    }

    @Test func anEnforcedRefusalTakesAStatusTheOperationDocuments() async throws {
        let (root, spec, _) = try Self.imported(Self.problems)
        defer { try? FileManager.default.removeItem(at: root) }
        try await withServer(stubs: root.appendingPathComponent("Stubs"), configure: { $0.check(against: URL(fileURLWithPath: spec), enforces: true) }) { server in
            // A path parameter of the wrong type is a 400, which getThing does not document; 422 it does.
            let refused = try await HTTPClient.fetch(server.url("/things/abc"))
            #expect(refused.status == 422)
            // Sent as the document says getThing's 422 comes, not as plain JSON.
            #expect(refused.header("Content-Type") == "application/problem+json")
            let served = try await HTTPClient.fetch(server.url("/things/1"))
            #expect(served.status == 200)
        }
    }

    @Test func anEnforcedRefusalFitsTheBodyItsStatusDocumentsWhereTheEnvelopeDoesNot() async throws {
        let (root, spec, _) = try Self.imported(Self.bareError)
        defer { try? FileManager.default.removeItem(at: root) }
        try await withServer(stubs: root.appendingPathComponent("Stubs"), configure: { $0.check(against: URL(fileURLWithPath: spec), enforces: true) }) { server in
            // createRun's 400 is a bare Error: the refusal is one, with the problem in its message.
            let bare = try await HTTPClient.fetch(server.url("/runs"), method: "POST")
            #expect(bare.status == 400)
            let body = try JSONParser.parse([UInt8](bare.body))
            #expect(body["type"]?.scalarText == "invalid_request_error")
            #expect(body["message"]?.scalarText?.contains("$.query.limit") == true, "\(body)")
            #expect(body["error"] == nil)
        }
    }
}
