import Foundation
import StubServer
import StubdClient
import StubTestSupport
import StubTesting
import Testing

/// Everything a route does, over HTTP/2: holds, streams, conditional and range requests, bodies
/// with `when`, sessions, refusals, and a stop that answers held streams.
@Suite(.timeLimit(.minutes(3))) struct HTTP2LifecycleTests {
    func stubs() throws -> TemporaryStubDirectory {
        try TemporaryStubDirectory([
            "app/doc/route.json": #"{"method": "GET", "path": "/doc", "etag": "auto"}"#,
            "app/doc/200.json": #"{"hello": "world", "padding": "0123456789abcdef"}"# + "\n",
            "app/login/route.json": #"""
            {"method": "POST", "path": "/login", "default": "401",
             "variants": {"200": {"when": {"body": {"user": "jane"}}, "body": {"token": "t"}}, "401": {"body": {"error": "no"}}}}
            """#,
            "app/feed/route.json": #"{"method": "GET", "path": "/feed"}"#,
            "app/feed/200.events.json": #"[{"data": "one", "after": {"ms": 100}}, {"data": "two", "after": {"ms": 100}}, {"data": "three", "after": {"ms": 100}}]"#,
        ])
    }

    func curl(_ server: StubServer, _ tls: TLSFixture, _ arguments: [String]) async throws -> Curl.Result {
        try await Curl.run(["-sS", "--http2", "--cacert", tls.directory.authorityCertificate] + arguments)
    }

    @Test func conditionalRangeAndHeadRequests() async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0) }) { server in
            let url = server.tlsURL("/doc").absoluteString
            let full = try await curl(server, tls, ["-D", "-", url])
            let tag = try #require(full.stdout.components(separatedBy: "\r\n").first { $0.hasPrefix("etag: ") }?.dropFirst(6))
            #expect(full.stdout.hasPrefix("HTTP/2 200"), "\(full.stdout)")
            let revalidated = try await curl(server, tls, ["-o", "/dev/null", "-w", "%{http_code} %{size_download}", "-H", "If-None-Match: \(tag)", url])
            #expect(revalidated.stdout == "304 0")
            let range = try await curl(server, tls, ["-D", "-", "-H", "Range: bytes=2-6", url])
            #expect(range.stdout.hasPrefix("HTTP/2 206") && range.stdout.contains("content-range: bytes 2-6/") && range.stdout.hasSuffix("hello"),
                    "\(range.stdout)")
            let head = try await curl(server, tls, ["-I", url])
            #expect(head.exitCode == 0 && head.stdout.hasPrefix("HTTP/2 200") && head.stdout.contains("content-length: 50"), "\(head.stdout) \(head.stderr)")
        }
    }

    @Test func requestBodiesChooseVariantsAndSessionsKeepTheirOwn() async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0) }) { server in
            let jane = try await curl(server, tls, ["-H", "Content-Type: application/json", "--data", #"{"user": "jane"}"#,
                                                    server.tlsURL("/login").absoluteString])
            #expect(jane.stdout.contains("\"token\""), "\(jane.stdout) \(jane.stderr)")
            let client = StubdClient(baseURL: server.baseURL)
            try await client.override(route: "app/login", variant: "401", session: "s1")
            let inSession = try await curl(server, tls, ["-H", "Content-Type: application/json", "--data", #"{"user": "jane"}"#,
                                                         server.tlsURL("/__session/s1/login").absoluteString])
            #expect(inSession.stdout.contains("\"error\""), "\(inSession.stdout)")
            let record = try #require(try await client.journal(route: "app/login").first)
            #expect(record.httpVersion == "HTTP/2" && record.method == "POST")
        }
    }

    /// A held stream waits without holding its connection: a second stream on the same
    /// connection is answered meanwhile; the release answers the first.
    @Test(.requires(.httpx)) func holdsAreReleasedAndDoNotBlockTheConnection() async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0) }) { server in
            let client = StubdClient(baseURL: server.baseURL)
            try await client.hold(route: "app/doc")
            let script = """
                import asyncio, sys, httpx
                async def main():
                    async with httpx.AsyncClient(http2=True, verify=sys.argv[1]) as c:
                        held = asyncio.create_task(c.get(sys.argv[2] + "/doc"))
                        other = await c.post(sys.argv[2] + "/login", json={"user": "jane"})
                        print("other", other.http_version, other.status_code, held.done(), flush=True)
                        r = await held
                        print("held", r.http_version, r.status_code, flush=True)
                asyncio.run(main())
                """
            async let run = Subprocess.run("/usr/bin/env", ["python3", "-c", script, tls.directory.authorityCertificate, server.tlsBaseURL!.absoluteString])
            #expect(try await eventually(10) { (try? await client.heldCount(route: "app/doc")) == 1 })
            // The other stream is answered while this one waits.
            #expect(try await eventually(10) { (try? await client.journal(route: "app/login").count) == 1 })
            #expect(try await client.release(route: "app/doc") == 1)
            let output = try await run
            #expect(output.stdout == "other HTTP/2 200 False\nheld HTTP/2 200\n", "\(output.stdout) \(output.stderr)")
        }
    }

    /// Server-sent events arrive one by one over HTTP/2, at their delays.
    @Test func eventStreamsArriveOverTime() async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0) }) { server in
            let start = monotonicMs()
            let result = try await curl(server, tls, ["-N", "-w", "%{http_version}", server.tlsURL("/feed").absoluteString])
            let elapsed = monotonicMs() - start
            #expect(result.stdout.contains("data: one") && result.stdout.contains("data: three") && result.stdout.hasSuffix("2"), "\(result.stdout)")
            #expect(elapsed >= 300, "\(elapsed) ms")
            let cut = try await curl(server, tls, ["-N", server.tlsURL("/feed?__fault=cut-after=1").absoluteString])
            #expect(cut.exitCode == 92 && cut.stdout.contains("data: one") && !cut.stdout.contains("data: two"), "\(cut.stdout) \(cut.stderr)")
        }
    }

    /// Oversized heads and bodies get the JSON refusals HTTP/1.1 gives.
    @Test func oversizedHeadsAndBodiesAreRefusedAsOverHTTP1() async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0); $0.maxBodyBytes = 1000 }) { server in
            let limit = server.configuration.maxHeadBytes
            let head = try await curl(server, tls, ["-D", "-", "-H", "X-Pad: \(String(repeating: "a", count: limit + 500))", server.tlsURL("/doc").absoluteString])
            #expect(head.stdout.hasPrefix("HTTP/2 431") && head.stdout.contains("\(limit) bytes for the request head"), "\(head.stdout) \(head.stderr)")
            let body = try await curl(server, tls, ["-o", "/dev/null", "-w", "%{http_code}", "--data", String(repeating: "b", count: 5000),
                                                    server.tlsURL("/login").absoluteString])
            #expect(body.stdout == "413", "\(body.stdout) \(body.stderr)")
        }
    }

    /// Stopping answers a held stream (503, as over HTTP/1.1) and sends GOAWAY, at once.
    @Test func stoppingAnswersHeldStreamsAndSaysGoAway() async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        var configuration = StubServerConfiguration()
        try tls.configure(&configuration)
        let server = try StubServer(stubsAt: stubs.url, configuration: configuration)
        let client = StubdClient(baseURL: server.baseURL)
        try await client.hold(route: "app/doc")
        async let held = curl(server, tls, ["-o", "/dev/null", "-w", "%{http_code}", server.tlsURL("/doc").absoluteString])
        #expect(try await eventually(10) { (try? await client.heldCount(route: "app/doc")) == 1 })
        let start = monotonicMs()
        server.stop()
        let stopMs = monotonicMs() - start
        #expect(try await held.stdout == "503")
        #expect(stopMs < 1000, "\(stopMs) ms")
    }
}
