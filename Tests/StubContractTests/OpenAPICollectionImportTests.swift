import Foundation
import StubContract
import StubCore
import StubSchema
import Testing
import StubTestSupport

/// `import-openapi --collections`: a REST resource (a list path with GET and/or POST, an item
/// path with GET and PUT, PATCH or DELETE) becomes one collection folder, with its seed,
/// pagination, list envelope and the error variants the collection does not answer itself;
/// everything else is imported as without the option.
@Suite(.timeLimit(.minutes(3))) struct OpenAPICollectionImportTests {
    static let petstore = """
    openapi: 3.0.3
    info: { title: Pets, version: "1" }
    servers: [{ url: "https://api.example.com/v1" }]
    paths:
      /pets:
        get:
          operationId: listPets
          parameters:
            - { name: page, in: query, schema: { type: integer, minimum: 1 } }
            - { name: per_page, in: query, schema: { type: integer, default: 20, maximum: 100 } }
            - { name: sort, in: query, schema: { type: string } }
          responses:
            "200":
              description: A page of pets
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/PetPage" }
                  example:
                    data: [{ id: 1, name: Rex, tag: dog }, { id: 2, name: Tom, tag: cat }]
                    meta: { total: 2, page: 1, per_page: 20 }
            "503": { description: Down for maintenance, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
        post:
          operationId: createPet
          requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }
          responses:
            "201": { description: Created, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }
            "400": { description: Not a pet, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
            "429":
              description: Slow down
              content: { application/json: { schema: { type: object, properties: { retryAfter: { type: integer } } }, example: { retryAfter: 30 } } }
      /pets/{petId}:
        parameters: [{ name: petId, in: path, required: true, schema: { type: integer } }]
        get:
          operationId: showPet
          responses:
            "200":
              description: The pet
              content:
                application/json:
                  schema: { $ref: "#/components/schemas/Pet" }
                  examples:
                    tom: { value: { id: 2, name: Tom again } }
                    kit: { value: { id: 3, name: Kit } }
            "404": { description: No such pet, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
        put:
          operationId: replacePet
          requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } }
          responses: { "200": { description: Replaced, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } } }
        patch:
          operationId: updatePet
          requestBody: { content: { application/merge-patch+json: { schema: { type: object } } } }
          responses: { "200": { description: Updated, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } } }
        delete:
          operationId: deletePet
          responses:
            "204": { description: Gone }
            "503": { description: Down for maintenance, content: { application/json: { schema: { $ref: "#/components/schemas/Error" } } } }
      /health:
        get: { operationId: health, responses: { "200": { description: ok, content: { application/json: { example: { ok: true } } } } } }
    components:
      schemas:
        Pet:
          type: object
          required: [id, name]
          properties: { id: { type: integer, format: int64 }, name: { type: string }, tag: { type: string } }
        PetPage:
          type: object
          required: [data, meta]
          properties:
            data: { type: array, items: { $ref: "#/components/schemas/Pet" } }
            meta: { type: object, properties: { total: { type: integer }, page: { type: integer }, per_page: { type: integer } } }
        Error:
          type: object
          required: [code, message]
          properties: { code: { type: string }, message: { type: string } }
    """

    /// `text` written as `name` in a new folder and read.
    func document(_ text: String, _ name: String = "api.yaml") throws -> OpenAPIDocument {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-coll-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let spec = root.appendingPathComponent(name)
        try Data(text.utf8).write(to: spec)
        return try OpenAPIDocument(path: spec.path)
    }

    /// The import of `text` with collections.
    func importer(_ text: String) throws -> OpenAPIImporter { OpenAPIImporter(try document(text), collections: true) }

    func json(_ importer: OpenAPIImporter, _ path: String) throws -> JSONValue {
        let file = try #require(importer.files.first { $0.path == path }, "\(path) not among \(importer.files.map(\.path))")
        return try JSONParser.parse(file.bytes)
    }

    func expectSame(_ found: JSONValue, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let value = try JSONParser.parse(Array(expected.utf8))
        #expect(JSONEquality.same(found, value), "found \(found.serialized(pretty: true))", sourceLocation: sourceLocation)
    }

    @Test func aPetstoreResourceBecomesOneCollectionWithSeedPaginationListAndErrorVariants() throws {
        let imported = try importer(OpenAPICollectionImportTests.petstore)
        try expectSame(try json(imported, "Pets/listPets/route.json"), """
        {"path": "/pets",
         "collection": {"seed": "pets.json", "id": "id", "ids": "integer",
                        "pagination": {"style": "page", "page": "page", "size": "per_page", "defaultSize": 20, "maxSize": 100},
                        "sort": "sort",
                        "list": {"data": "{{items}}", "meta": {"total": "{{total}}", "page": "{{page}}", "per_page": "{{size}}"}}},
         "variants": {"503": {"error": {"title": "Service Unavailable", "message": "Down for maintenance"}}, "429": {}}}
        """)
        // The list example's objects, then the item's examples; id 2 once, as the list has it.
        try expectSame(try json(imported, "Pets/listPets/pets.json"), """
        [{"id": 1, "name": "Rex", "tag": "dog"}, {"id": 2, "name": "Tom", "tag": "cat"}, {"id": 3, "name": "Kit"}]
        """)
        try expectSame(try json(imported, "Pets/listPets/429.json"), #"{"retryAfter": 30}"#)
        // The resource's six operations are the collection; the rest are routes as ever.
        let folders = Set(imported.files.map { $0.path.split(separator: "/").dropFirst().first.map(String.init) ?? "" })
        #expect(folders == ["listPets", "health", "_service.json"], "\(folders)")
        #expect(imported.collectionCount == 1 && imported.routeCount == 2)
        #expect(imported.collectionReport.count == 1)
        let report = try #require(imported.collectionReport.first)
        #expect(report.hasPrefix("/pets: collection Pets/listPets for GET, POST /pets and GET, PUT, PATCH, DELETE /pets/{petId}"), "\(report)")
        #expect(report.contains("page pagination (page, per_page)") && report.contains("list in \"data\" with {{total}}, {{page}}, {{size}}")
                && report.contains("seed of 3 object(s) from the document's examples"), "\(report)")
        #expect(imported.skipped.isEmpty, "\(imported.skipped)")
    }

    @Test func aDocumentWithoutAResourceImportsExactlyAsWithoutTheOption() async throws {
        let text = """
        openapi: 3.0.3
        info: { title: Plain, version: "1" }
        paths:
          /pets:
            get: { operationId: listPets, responses: { "200": { description: ok, content: { application/json: { example: [{ id: 1 }] } } } } }
          /pets/{petId}:
            get: { operationId: showPet, responses: { "200": { description: ok, content: { application/json: { example: { id: 1 } } } } } }
          /orders/{orderId}:
            delete: { operationId: cancel, responses: { "204": { description: gone } } }
        """
        let read = try document(text)
        let with = OpenAPIImporter(read, collections: true), without = OpenAPIImporter(read)
        #expect(with.files.map(\.path) == without.files.map(\.path) && with.files.map(\.bytes) == without.files.map(\.bytes))
        #expect(with.summary == without.summary && with.collectionCount == 0)
        #expect(with.collectionReport == ["/pets and /pets/{petId}: no PUT, PATCH or DELETE on /pets/{petId}; imported as routes"])
        // The command writes the same tree and says why there is no collection.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-coll-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let spec = root.appendingPathComponent("plain.yaml")
        try Data(text.utf8).write(to: spec)
        var trees: [[String: Data]] = []
        for options in [["--collections"], []] {
            let stubs = root.appendingPathComponent("Stubs\(options.count)")
            let result = try await Subprocess.run(Repository.stubdBinary, ["import-openapi", spec.path, "--stubs", stubs.path] + options)
            #expect(result.exitCode == 0, "\(result.stderr)")
            #expect(result.stdout.contains("Collections: 0 of 1 candidate(s):") == !options.isEmpty, "\(result.stdout)")
            trees.append(try tree(stubs))
        }
        #expect(trees[0] == trees[1] && trees[0].count == 6, "\(trees.map { $0.keys.sorted() })")
    }

    /// Every file under `root`, by relative path.
    func tree(_ root: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(root.path.count))] = try Data(contentsOf: url)
        }
        return files
    }
}
