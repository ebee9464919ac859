import Foundation
import StubContract
import StubCore
import Testing
import StubTestSupport

/// A `$ref` to another host (`https://example.com/schemas/pet.json#/Pet`): never fetched; only
/// the operation that uses it is left out of the import and the checks, named with the ref and
/// where it stands, and a copy saved under the spec root as `<host>/<path>` stands for it.
extension OpenAPIImportTests {
    static let remotePets = """
    openapi: 3.0.3
    info: { title: Pets, version: "1" }
    paths:
      /owners:
        get:
          operationId: listOwners
          responses:
            "200":
              description: Owners
              content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Owner" } } } }
            "400":
              description: A problem
              content: { application/problem+json: { schema: { $ref: 'https://example.com/problem.yaml#/Problem' } } }
        post:
          operationId: createOwner
          requestBody: { required: true, content: { application/json: { schema: { $ref: "#/components/schemas/Owner" } } } }
          responses:
            "201": { description: Made, content: { application/json: { schema: { $ref: "#/components/schemas/Owner" } } } }
      /pets/{petId}:
        get:
          operationId: getPet
          parameters: [{ name: petId, in: path, required: true, schema: { type: integer } }]
          responses:
            "200":
              description: A pet
              content:
                application/json:
                  schema: { $ref: 'https://example.com/schemas/pet.json#/Pet' }
      /toys: { $ref: 'https://example.com/paths.yaml#/toys' }
    components:
      schemas:
        Owner: { type: object, required: [name], properties: { name: { type: string } } }
    """

    /// The remote document's copy, with a relative ref to a sibling as the remote one would have.
    func saveRemoteCopy(under root: URL) throws {
        _ = try write(#"{"Id": {"$ref": "common.json#/Id"}, "Pet": {"type": "object", "required": ["id", "name"], "properties": {"id": {"$ref": "common.json#/Id"}, "name": {"type": "string", "example": "Rex"}}}}"#,
                      "mirror/example.com/schemas/pet.json", in: root)
        _ = try write(#"{"Id": {"type": "integer", "minimum": 1, "example": 7}}"#, "mirror/example.com/schemas/common.json", in: root)
    }

    @Test func aRemoteRefSkipsOnlyTheOperationThatUsesIt() async throws {
        let (root, spec, stubs, result) = try await importing(OpenAPIImportTests.remotePets, as: "pets.yaml")
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("stubd: skipped GET /pets/{petId}: uses the remote $ref https://example.com/schemas/pet.json#/Pet (pets.yaml line 28), which is not fetched; a copy saved as \(root.resolvingSymlinksInPath().path)/example.com/schemas/pet.json would be read instead (--spec-root)"), "\(result.stderr)")
        #expect(result.stderr.contains("warning: \(spec): /toys: not imported: the path item is the remote $ref https://example.com/paths.yaml#/toys (pets.yaml line 29)"),
                "\(result.stderr)")
        // An error response with a remote schema leaves out that response, not its operation.
        #expect(result.stderr.contains("stubd: skipped GET /owners → 400 (/paths/~1owners/get/responses/400): uses the remote $ref https://example.com/problem.yaml#/Problem (pets.yaml line 13)"),
                "\(result.stderr)")
        #expect(result.stdout.contains("2 written, 2 skipped"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: stubs.appendingPathComponent("Pets/listOwners/200.json").path))
        #expect(!FileManager.default.fileExists(atPath: stubs.appendingPathComponent("Pets/listOwners/400.json").path))
        #expect(FileManager.default.fileExists(atPath: stubs.appendingPathComponent("Pets/listOwners/route.json").path))
        #expect(!FileManager.default.fileExists(atPath: stubs.appendingPathComponent("Pets/getPet").path))

        let check = try await stubd(["check", stubs.path, "--openapi", spec])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stderr.contains("warning: \(spec): GET /pets/{petId} (getPet) has no route (it uses the remote $ref https://example.com/schemas/pet.json#/Pet"), "\(check.stderr)")
        let strict = try await stubd(["check", stubs.path, "--openapi", spec, "--strict"])
        #expect(strict.exitCode == 1, "\(strict.stdout)")
    }

    @Test func aCopyUnderTheSpecRootByHostAndPathStandsForTheRemoteDocument() async throws {
        let root = try folder()
        try saveRemoteCopy(under: root)
        let mirror = root.appendingPathComponent("mirror").path
        let (_, spec, stubs, result) = try await importing(OpenAPIImportTests.remotePets, as: "pets.yaml", ["--spec-root", mirror])
        #expect(result.exitCode == 0 && !result.stderr.contains("skipped GET /pets"), "\(result.stderr)")
        #expect(result.stdout.contains("3 written, 1 skipped"), "\(result.stdout)")
        let pet = try json(stubs.appendingPathComponent("Pets/getPet/200.json"))
        #expect(pet["id"]?.scalarText == "7" && pet["name"]?.scalarText == "Rex", "\(pet)")

        let check = try await stubd(["check", stubs.path, "--openapi", spec, "--spec-root", mirror, "--strict"])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")

        // Without the copy, the stubs made with it still load and check; the pet route is named, not checked.
        let unchecked = try await stubd(["check", stubs.path, "--openapi", spec])
        #expect(unchecked.exitCode == 0, "\(unchecked.stdout)\(unchecked.stderr)")
        #expect(unchecked.stderr.contains("getPet/200.json: not checked against GET /pets/{petId} → 200: it uses the remote $ref https://example.com/schemas/pet.json#/Pet"),
                "\(unchecked.stderr)")
    }

    @Test func serveLeavesOnlyTheRemoteOperationsRequestsUnchecked() async throws {
        let root = try folder()
        try saveRemoteCopy(under: root)
        // The path parameter's schema is remote too: the requests of that operation cannot be checked.
        let document = OpenAPIImportTests.remotePets.replacing("schema: { type: integer }", with: "schema: { $ref: 'https://example.com/schemas/pet.json#/Id' }")
        let (_, spec, stubs, imported) = try await importing(document, as: "pets.yaml", ["--spec-root", root.appendingPathComponent("mirror").path])
        #expect(imported.stdout.contains("3 written"), "\(imported.stdout)\(imported.stderr)")
        let catalog = try StubLoader.load(directory: stubs.path).get()
        let checker = ContractChecker(document: try OpenAPIDocument(path: spec), enforces: false)
        let warnings = checker.prepare(catalog.routes)
        #expect(warnings.contains { $0.contains("GET /pets/{petId}: requests not checked: it uses the remote $ref https://example.com/schemas/pet.json#/Id") }, "\(warnings)")
        #expect(warnings.count == 1, "\(warnings)")
    }
}
