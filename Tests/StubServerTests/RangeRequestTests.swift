import Foundation
import StubCore
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// Range requests on a variant's body, as a resumed download sends them (curl `-C -`,
/// URLSession's resume data): `206` with `Content-Range`, `416` when no byte is in range, and
/// `If-Range` against the validators; throttled and cut like the whole body.
@Suite(.timeLimit(.minutes(1))) struct RangeRequestTests {
    /// 1,000 bytes of `A`–`Z` repeated: any slice says where it came from.
    static let body = String((0..<1000).map { Character(UnicodeScalar(UInt8(65 + $0 % 26))) })

    func stubs() throws -> TemporaryStubDirectory {
        try TemporaryStubDirectory([
            "app/file/route.json": #"{"method": "GET", "path": "/file", "etag": "\"v1\"", "lastModified": "2026-11-30T10:00:00Z"}"#,
            "app/file/200.txt": RangeRequestTests.body,
            "app/plain/route.json": #"{"method": "GET", "path": "/plain"}"#,
            "app/plain/200.txt": RangeRequestTests.body,
            "app/hello/route.json": #"{"method": "GET", "path": "/hello/{name}", "variants": {"200": {"body": "hello {{path.name}}", "template": true}}}"#,
        ])
    }

    func slice(_ range: ClosedRange<Int>) -> String {
        String(RangeRequestTests.body.dropFirst(range.lowerBound).prefix(range.count))
    }

    @Test(arguments: [
        ("bytes=0-9", 206, "bytes 0-9/1000", 0...9),
        ("bytes=990-", 206, "bytes 990-999/1000", 990...999),
        ("bytes=-5", 206, "bytes 995-999/1000", 995...999),
        ("bytes=500-5000", 206, "bytes 500-999/1000", 500...999),
        ("bytes=1000-", 416, "bytes */1000", nil),
        ("bytes=9-3", 416, "bytes */1000", nil),
        ("bytes=0-1,5-6", 200, nil, 0...999),    // several ranges: the whole body
        ("items=0-9", 200, nil, 0...999),        // another unit: the whole body
    ] as [(String, Int, String?, ClosedRange<Int>?)])
    func aRangeGetsItsBytes(range: String, status: Int, contentRange: String?, bytes: ClosedRange<Int>?) async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            let got = try await HTTPClient.fetch(server.url("/file"), headers: ["Range": range])
            #expect(got.status == status, "\(range)")
            #expect(got.header("Content-Range") == contentRange, "\(range)")
            #expect(got.text == (bytes.map(slice) ?? ""), "\(range)")
            if status != 416 { #expect(got.header("Accept-Ranges") == "bytes" && got.header("ETag") == "\"v1\"") }
        }
    }

    @Test func ifRangeGivesThePartOnlyWhileTheValidatorsHold() async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            for (ifRange, status) in [("\"v1\"", 206), ("\"v0\"", 200), ("W/\"v1\"", 200), ("Mon, 30 Nov 2026 10:00:00 GMT", 206),
                                      ("Tue, 01 Dec 2026 10:00:00 GMT", 200)] {
                let got = try await HTTPClient.fetch(server.url("/file"), headers: ["Range": "bytes=0-9", "If-Range": ifRange])
                #expect(got.status == status, "If-Range: \(ifRange)")
                #expect(got.text == (status == 206 ? slice(0...9) : RangeRequestTests.body), "If-Range: \(ifRange)")
            }
            // A revalidation wins over a range.
            let cached = try await HTTPClient.fetch(server.url("/file"), headers: ["Range": "bytes=0-9", "If-None-Match": "\"v1\""])
            #expect(cached.status == 304)
        }
    }

    @Test func aBodyWithoutValidatorsAndATemplateServeRangesToo() async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            let plain = try await HTTPClient.fetch(server.url("/plain"), headers: ["Range": "bytes=26-51"])
            #expect(plain.status == 206 && plain.text == slice(26...51))
            // No validator, so nothing says a download could resume.
            #expect(plain.header("Accept-Ranges") == nil)
            let full = try await HTTPClient.fetch(server.url("/plain"))
            #expect(full.status == 200 && full.header("Accept-Ranges") == nil)
            // A template's body is cut after it is rendered.
            let whole = try await HTTPClient.fetch(server.url("/hello/world")).body
            let rendered = try await HTTPClient.fetch(server.url("/hello/world"), headers: ["Range": "bytes=3-"])
            #expect(rendered.status == 206 && rendered.body == whole.dropFirst(3) && whole.count > 3)
            #expect(rendered.header("Content-Range") == "bytes 3-\(whole.count - 1)/\(whole.count)")
        }
    }

    /// curl resuming a download it had the first 300 bytes of (`-C -` sends `Range: bytes=300-`).
    @Test func curlResumesAnInterruptedDownload() async throws {
        let stubs = try stubs()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-resume-\(UUID().uuidString).txt")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(RangeRequestTests.body.utf8.prefix(300)).write(to: file)
        try await withServer(stubs: stubs.url) { server in
            let result = try await Curl.run(["-s", "-C", "-", "-o", file.path, "-w", "%{http_code}", server.url("/file").absoluteString])
            #expect(result.stdout == "206", "\(result.stdout) \(result.stderr)")
        }
        #expect(try String(contentsOf: file, encoding: .utf8) == RangeRequestTests.body)
    }

    /// docs/stub-format.md's recipes for Linux, where URLSession neither consults its URLCache
    /// nor produces resume data: the app sends `If-None-Match` and `Range` + `If-Range` itself.
    @Test func urlSessionOnLinuxRevalidatesAndResumesByHand() async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            // Revalidation: the tag of the first 200, sent back, gets a 304 with no body.
            let first = try await HTTPClient.fetch(server.url("/file"))
            let tag = try #require(first.header("ETag"))
            #expect(first.status == 200 && first.text == RangeRequestTests.body)
            let again = try await HTTPClient.fetch(server.url("/file"), headers: ["If-None-Match": tag])
            #expect(again.status == 304 && again.body.isEmpty)
            // Resumption: the bytes kept from a cut download, then the rest from where they end.
            let cut = try await HTTPClient.fetch(server.url("/file"), headers: ["Range": "bytes=0-399"])
            #expect(cut.status == 206)
            var kept = cut.body
            let rest = try await HTTPClient.fetch(server.url("/file"), headers: ["Range": "bytes=\(kept.count)-", "If-Range": tag])
            #expect(rest.status == 206 && rest.header("Content-Range") == "bytes 400-999/1000")
            kept += rest.body
            #expect(String(decoding: kept, as: UTF8.self) == RangeRequestTests.body)
            // A tag that no longer holds gets the whole new body, which replaces what was kept.
            let stale = try await HTTPClient.fetch(server.url("/file"), headers: ["Range": "bytes=400-", "If-Range": "\"v0\""])
            #expect(stale.status == 200 && stale.text == RangeRequestTests.body)
        }
    }

    @Test func aThrottledRangeAndATruncatedOneSendTheirPart() async throws {
        let stubs = try stubs()
        try await withServer(stubs: stubs.url) { server in
            let throttled = try await HTTPClient.fetch(server.url("/file?__throttle=20000"), headers: ["Range": "bytes=100-199"])
            #expect(throttled.status == 206 && throttled.text == slice(100...199) && throttled.header("Content-Range") == "bytes 100-199/1000")
            // truncate: the 206's head promises more than the range, half the range is sent, then close.
            let raw = try RawSocket(port: server.port)
            raw.send(Array("GET /file?__fault=truncate HTTP/1.1\r\nHost: x\r\nRange: bytes=100-199\r\n\r\n".utf8))
            let (head, rest) = String(decoding: await raw.readUntilClosed().bytes, as: UTF8.self).split(at: "\r\n\r\n")
            #expect(head.hasPrefix("HTTP/1.1 206") && head.contains("Content-Range: bytes 100-199/1000"), "\(head)")
            #expect(rest == slice(100...149), "\(rest)")
        }
    }
}
