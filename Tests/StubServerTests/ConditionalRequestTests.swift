import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubCore
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// Conditional GETs against a variant's `ETag` and `Last-Modified` (given, `etag: auto`, or in its
/// headers, as a capture keeps them): `304 Not Modified` as an HTTP cache revalidates (URLCache,
/// image caches), with the validators and caching headers and no body.
@Suite(.timeLimit(.minutes(3))) struct ConditionalRequestTests {
    static let body = #"{"hello": "world"}"# + "\n"

    func stubs() throws -> TemporaryStubDirectory {
        try TemporaryStubDirectory([
            "app/doc/route.json": #"""
            {"method": "GET", "path": "/doc", "etag": "auto", "lastModified": "2026-11-30T10:00:00Z",
             "variants": {"200": {"headers": {"Cache-Control": "max-age=60", "X-Other": "kept out of a 304"}},
                          "200-weak": {"etag": "W/\"v2\"", "body": {"v": 2}},
                          "200-captured": {"headers": {"ETag": "\"from-har\""}, "body": {"v": 3}}}}
            """#,
            "app/doc/200.json": ConditionalRequestTests.body,
            "app/post/route.json": #"{"method": "POST", "path": "/doc", "etag": "fixed", "variants": {"201": {"body": {}}}}"#,
        ])
    }

    /// Sends `request` on a raw connection and reads all until the server closes it.
    func exchange(_ server: StubServer, _ request: String) async throws -> String {
        let socket = try RawSocket(port: server.port)
        socket.send(Array(request.utf8))
        return String(decoding: await socket.readUntilClosed().bytes, as: UTF8.self)
    }

    @Test func aMatchingIfNoneMatchGets304WithTheValidatorsAndNoBody() async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            let full = try await HTTPClient.fetch(server.url("/doc"))
            let tag = try #require(full.header("ETag"))
            // etag auto: the first 16 hex digits of the body's SHA-256.
            #expect(tag == "\"" + SHA256.digest(Array(ConditionalRequestTests.body.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined() + "\"")
            #expect(full.header("Last-Modified") == "Mon, 30 Nov 2026 10:00:00 GMT")
            // Raw bytes: curl and URLSession hide whether a body followed the head.
            let raw = try await exchange(server, "GET /doc HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(tag)\r\nConnection: close\r\n\r\n")
            let (head, rest) = raw.split(at: "\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 304"), "\(raw)")
            #expect(rest.isEmpty, "a 304 has no body: \(rest)")
            for line in ["ETag: \(tag)", "Last-Modified: Mon, 30 Nov 2026 10:00:00 GMT", "Cache-Control: max-age=60",
                         "Content-Length: \(ConditionalRequestTests.body.utf8.count)"] {
                #expect(head.contains(line), "\(line) in \(head)")
            }
            #expect(!head.contains("X-Other") && !head.contains("Content-Type"), "\(head)")
        }
    }

    @Test(arguments: [
        (#"If-None-Match: "nope""#, "200", 200),
        (#"If-None-Match: "nope", W/"v2""#, "200-weak", 304),   // a list; weak comparison
        (#"If-None-Match: "v2""#, "200-weak", 304),             // the weak tag matches a strong one
        ("If-None-Match: *", "200", 304),
        (#"If-None-Match: "from-har""#, "200-captured", 304),   // an ETag header counts as the tag
        ("If-Modified-Since: Mon, 30 Nov 2026 10:00:00 GMT", "200", 304),
        ("If-Modified-Since: Tuesday, 01-Dec-26 10:00:00 GMT", "200", 304),
        ("If-Modified-Since: Sun Nov 29 10:00:00 2026", "200", 200),
        ("If-Modified-Since: not a date", "200", 200),
        // If-None-Match decides alone when it is there.
        (#"If-None-Match: "nope"\#r\#nIf-Modified-Since: Tue, 01 Dec 2026 10:00:00 GMT"#, "200", 200),
    ])
    func conditionsAreReadAsRFC9110Says(condition: String, variant: String, status: Int) async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            let raw = try await exchange(server,
                                         "GET /doc HTTP/1.1\r\nHost: x\r\nX-Stub-Variant: \(variant)\r\n\(condition)\r\nConnection: close\r\n\r\n")
            #expect(raw.hasPrefix("HTTP/1.1 \(status) "), "\(condition): \(raw.prefix(80))")
        }
    }

    @Test func onlyGETAndHEADAreAnsweredConditionally() async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            let head = try await HTTPClient.fetch(server.url("/doc"), method: "HEAD", headers: ["If-None-Match": "*"])
            #expect(head.status == 304)
            let post = try await HTTPClient.fetch(server.url("/doc"), method: "POST", headers: ["If-None-Match": "*"])
            #expect(post.status == 201 && post.header("ETag") == "\"fixed\"", "\(post.status)")
            // The journal says what was sent.
            let entries = server.control.journal(session: nil).map(\.record)
            #expect(entries.map(\.status) == [304, 201])
        }
    }

    @Test func aCapturedETagMakesAReplayedRevalidationGetIts304() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-cond-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = folder.appendingPathComponent("proxyman.har")
        try Data(HARFixtures.proxyman.utf8).write(to: har)
        let stubs = folder.appendingPathComponent("Stubs")
        let imported = try await Subprocess.run(Repository.stubdBinary, ["import-har", har.path, "--stubs", stubs.path])
        #expect(imported.exitCode == 0, "\(imported.stderr)")
        try await withServer(stubs: stubs) { server in
            // Captured: GET /api/v1/users/1 → 200 with ETag "u1".
            let again = try await HTTPClient.fetch(server.url("/api/v1/users/1"), headers: ["If-None-Match": "\"u1\""])
            #expect(again.status == 304 && again.body.isEmpty, "\(again.status) \(again.text)")
            let changed = try await HTTPClient.fetch(server.url("/api/v1/users/1"), headers: ["If-None-Match": "\"old\""])
            #expect(changed.status == 200 && changed.text.contains("Jane"))
        }
    }

    @Test func badValidatorsNameTheirFileAndKey() throws {
        let stubs = try TemporaryStubDirectory([
            "app/a/route.json": #"{"method": "GET", "path": "/a", "lastModified": "yesterday", "variants": {"200": {"etag": "a\"b", "body": {}}}}"#,
            "app/t/route.json": #"{"method": "GET", "path": "/t/{x}", "variants": {"200": {"etag": "auto", "template": true, "body": {"id": "{{path.x}}"}}}}"#,
        ])
        guard case .failure(let failure) = StubLoader.load(directory: stubs.url.path) else { Issue.record("loaded"); return }
        let text = "\(failure)"
        #expect(text.contains("app/a/route.json: lastModified: expected an HTTP date"), "\(text)")
        #expect(text.contains("app/a/route.json: variants.200.etag: expected \"auto\" or an entity tag"), "\(text)")
        #expect(text.contains("app/t/route.json: variants.200.etag: expected a fixed body for \"auto\", found a template"), "\(text)")
    }

    /// What docs/stub-format.md says of Linux: URLSession with a URLCache does not revalidate a
    /// stale answer; the second GET goes out without `If-None-Match` and gets the whole 200.
    @Test func urlSessionOnLinuxDoesNotRevalidateThroughItsURLCache() async throws {
        let stubs = try TemporaryStubDirectory([
            "app/stale/route.json": #"{"method": "GET", "path": "/stale", "etag": "v1", "variants": {"200": {"headers": {"Cache-Control": "max-age=0"}}}}"#,
            "app/stale/200.json": ConditionalRequestTests.body,
        ])
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = URLCache(memoryCapacity: 1 << 20, diskCapacity: 0, diskPath: nil)
        configuration.requestCachePolicy = .useProtocolCachePolicy
        let session = URLSession(configuration: configuration)
        defer { session.invalidateAndCancel() }
        try await withServer(stubs: stubs.url) { server in
            for _ in 0..<2 {
                let got = try await HTTPClient.fetch(server.url("/stale"), session: session)
                #expect(got.status == 200 && got.text == ConditionalRequestTests.body)
            }
            let records = await server.waitForRequests(route: "app/stale", count: 2, timeout: 3)
            #if os(Linux)
            #expect(records.map(\.status) == [200, 200] && records.allSatisfy { $0.request.header("If-None-Match") == nil },
                    "\(records.map { ($0.status, $0.request.header("If-None-Match") ?? "-") })")
            #endif
        }
    }
}
