import Foundation
import StubContract
import StubCore
import StubServer
import StubTestSupport
import Testing

/// `import-openapi` on responses documented with a media type that is not plain JSON: a `+json`
/// or vendor type, text, HTML, bytes and images are each written with a body of their type and
/// served with the documented `Content-Type`; `check --openapi` names a served type the document
/// does not list.
@Suite(.timeLimit(.minutes(3))) struct OpenAPIImportMediaTests {
    static let document = """
    openapi: 3.0.3
    info: { title: Media, version: "1" }
    paths:
      /Users/{id}:
        get:
          operationId: getUser
          parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
          responses:
            "200": { description: ok, content: { application/scim+json: { schema: { type: object, required: [id], properties: { id: { type: string } } } } } }
      /repos:
        get:
          operationId: listRepos
          responses:
            "200": { description: ok, content: { application/vnd.github+json: { example: [{ name: stubd }] } } }
      /plain:
        get:
          operationId: getPlain
          responses:
            "200": { description: ok, content: { application/json: { example: { ok: true } } } }
      /ping:
        get:
          operationId: ping
          responses:
            "200": { description: alive, content: { text/plain: { example: pong } } }
      /page:
        get:
          operationId: page
          responses:
            "200": { description: A page, content: { text/html: { schema: { type: string } } } }
      /blob:
        get:
          operationId: blob
          responses:
            "200": { description: bytes, content: { application/octet-stream: { schema: { type: string, format: binary } } } }
      /raw:
        get:
          operationId: raw
          responses:
            "200": { description: bytes, content: { application/octet-stream: { example: "raw bytes" } } }
      /avatar.png:
        get:
          operationId: avatarPNG
          responses:
            "200": { description: image, content: { image/png: { schema: { type: string, format: binary } } } }
      /avatar.gif:
        get:
          operationId: avatarGIF
          responses:
            "200": { description: image, content: { image/gif: {} } }
      /avatar.jpg:
        get:
          operationId: avatarJPEG
          responses:
            "200": { description: image, content: { image/jpeg: {} } }
      /avatar.webp:
        get:
          operationId: avatarWebP
          responses:
            "200": { description: image, content: { image/webp: {} } }
    """

    /// The document written to a new folder and imported in process.
    static func imported(_ text: String = document) throws -> (root: URL, spec: String, files: [String: [UInt8]]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let spec = root.appendingPathComponent("api.yaml")
        try Data(text.utf8).write(to: spec)
        let importer = OpenAPIImporter(try OpenAPIDocument(path: spec.path))
        var files: [String: [UInt8]] = [:]
        for file in importer.files {
            files[file.path] = file.bytes
            let url = root.appendingPathComponent("Stubs").appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(file.bytes).write(to: url)
        }
        return (root, spec.path, files)
    }

    static func contentType(_ files: [String: [UInt8]], route: String) throws -> String? {
        let json = try JSONParser.parse(try #require(files["Media/\(route)/route.json"]))
        return json["variants"]?["200"]?["headers"]?["Content-Type"]?.scalarText
    }

    @Test func aVendorJSONResponseKeepsItsDocumentedMediaType() throws {
        let (root, _, files) = try Self.imported()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(files["Media/getUser/200.json"] != nil)
        #expect(try Self.contentType(files, route: "getUser") == "application/scim+json")
        #expect(try Self.contentType(files, route: "listRepos") == "application/vnd.github+json")
        #expect(try Self.contentType(files, route: "getPlain") == nil)
    }

    @Test func textAndHTMLResponsesAreWrittenAsTextOfTheirType() throws {
        let (root, _, files) = try Self.imported()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(files["Media/ping/200.txt"].map { String(decoding: $0, as: UTF8.self) } == "pong")
        let html = String(decoding: try #require(files["Media/page/200.html"]), as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("A page"))
        #expect(try Self.contentType(files, route: "ping") == nil)
        #expect(try Self.contentType(files, route: "page") == nil)
    }

    @Test func bytesAndImagesGetTheExampleOrABodyOfTheirType() throws {
        let (root, _, files) = try Self.imported()
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(files["Media/raw/200.bin"] == Array("raw bytes".utf8))
        #expect(files["Media/blob/200.bin"]?.isEmpty == false)
        #expect(files["Media/avatarPNG/200.png"]?.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == true)
        #expect(files["Media/avatarGIF/200.gif"]?.starts(with: Array("GIF89a".utf8)) == true)
        let jpeg = try #require(files["Media/avatarJPEG/200.jpg"])
        #expect(jpeg.starts(with: [0xFF, 0xD8]) && jpeg.suffix(2).elementsEqual([0xFF, 0xD9]))
        #expect(try Self.contentType(files, route: "avatarWebP") == "image/webp")
        #expect(try Self.contentType(files, route: "avatarPNG") == nil)
    }

    @Test func checkNamesAServedTypeTheDocumentDoesNotList() throws {
        let (root, spec, _) = try Self.imported()
        defer { try? FileManager.default.removeItem(at: root) }
        let stubs = root.appendingPathComponent("Stubs")
        let document = try OpenAPIDocument(path: spec)
        let clean = DriftCheck(catalog: try StubLoader.load(directory: stubs.path).get(), document: document)
        #expect(!clean.warnings.contains { $0.contains("Content-Type") }, "\(clean.warnings)")
        // The SCIM answer served as plain JSON, and the page as text.
        try Data(#"{"method": "GET", "path": "/Users/{id}", "default": "200", "variants": {"200": {}}}"#.utf8)
            .write(to: stubs.appendingPathComponent("Media/getUser/route.json"))
        try FileManager.default.moveItem(at: stubs.appendingPathComponent("Media/page/200.html"), to: stubs.appendingPathComponent("Media/page/200.txt"))
        let drift = DriftCheck(catalog: try StubLoader.load(directory: stubs.path).get(), document: document)
        #expect(drift.warnings.contains("Media/getUser/200.json: Content-Type application/json; charset=utf-8 is not documented for GET /Users/{id} → 200; expected application/scim+json"),
                "\(drift.warnings)")
        #expect(drift.warnings.contains("Media/page/200.txt: Content-Type text/plain; charset=utf-8 is not documented for GET /page → 200; expected text/html"),
                "\(drift.warnings)")
    }

    @Test func eachKindIsServedWithItsTypeAndABody() async throws {
        let (root, _, _) = try Self.imported()
        defer { try? FileManager.default.removeItem(at: root) }
        let expected = [("/Users/7", "application/scim+json"), ("/repos", "application/vnd.github+json"), ("/plain", "application/json"),
                        ("/ping", "text/plain"), ("/page", "text/html"), ("/blob", "application/octet-stream"), ("/raw", "application/octet-stream"),
                        ("/avatar.png", "image/png"), ("/avatar.gif", "image/gif"), ("/avatar.jpg", "image/jpeg"), ("/avatar.webp", "image/webp")]
        try await withServer(stubs: root.appendingPathComponent("Stubs")) { server in
            for (path, type) in expected {
                let answer = try await HTTPClient.fetch(server.url(path))
                #expect(answer.status == 200, "\(path)")
                #expect(answer.header("Content-Type").map(MediaBody.base) == type, "\(path): \(answer.header("Content-Type") ?? "none")")
                #expect(!answer.body.isEmpty, "\(path)")
            }
        }
    }
}
