import Foundation
import StubTestSupport

/// One OpenAPI document written to a new folder and imported with `stubd import-openapi`: where
/// the import tests start.
extension OpenAPIImportTests {
    /// Writes `document` as `name` in a new folder, imports it into that folder's `Stubs` with
    /// `options`, and returns the folder, the document's path, the stubs and the import's result.
    func importing(_ document: String, as name: String, _ options: [String] = []) async throws -> (root: URL, spec: String, stubs: URL, result: Curl.Result) {
        let root = try folder()
        let spec = try write(document, name, in: root)
        let stubs = root.appendingPathComponent("Stubs")
        let result = try await stubd(["import-openapi", spec, "--stubs", stubs.path] + options)
        return (root, spec, stubs, result)
    }
}
