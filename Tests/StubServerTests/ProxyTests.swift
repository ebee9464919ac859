import Foundation
import StubServer
import StubTesting
import Testing

/// `--proxy-unmatched`, `--record-unmatched` and `stubd record`, with a second stubd as the real API.
@Suite struct ProxyTests {
    static let front = [
        "me/route.json": #"{"method": "GET", "path": "/api/v1/users/1"}"#,
        "me/200.json": #"{"stubbed": true}"#,
    ]

    func journal(_ server: StubServer) async throws -> [[String: Any]] {
        let got = try await HTTPClient.fetch(server.url("/__stubd/requests"))
        return try #require((try got.json() as? [String: Any])?["requests"] as? [[String: Any]])
    }

    @Test func unmatchedRequestsGoUpstreamAndAFailingUpstreamIsA502() async throws {
        let stubs = try TemporaryStubDirectory(ProxyTests.front)
        let upstream = try StubServer(stubsAt: Repository.shippedStubs)
        try await withServer(stubs: stubs.url, configure: { $0.proxyUnmatched = upstream.baseURL; $0.proxyTimeoutSeconds = 5 }) { server in
            let stubbed = try await HTTPClient.fetch(server.url("/api/v1/users/1"))
            #expect(stubbed.text == #"{"stubbed": true}"#)
            for path in ["/api/v1/users/2", "/api/v1/users/999", "/api/v1/users?page=2"] {
                let proxied = try await HTTPClient.fetch(server.url(path))
                let direct = try await HTTPClient.fetch(upstream.url(path))
                #expect(proxied.status == direct.status && proxied.body == direct.body, "\(path)")
                #expect(proxied.header("Content-Type") == direct.header("Content-Type"))
            }
            // A POST with a body reaches the upstream whole (it echoes the template's fields).
            let login = try await HTTPClient.fetch(server.url("/api/v1/changePass"), method: "POST", headers: ["Content-Type": "application/json"],
                                                   body: Data(#"{"email": "a@b.c"}"#.utf8))
            let loginDirect = try await HTTPClient.fetch(upstream.url("/api/v1/changePass"), method: "POST", headers: ["Content-Type": "application/json"],
                                                         body: Data(#"{"email": "a@b.c"}"#.utf8))
            #expect(login.status == loginDirect.status && login.body == loginDirect.body)
            let entries = try await journal(server)
            #expect(entries.map { $0["proxied"] as? Bool } == [false, true, true, true, true])
            try await OffPool.run { upstream.stop() }
            let failed = try await HTTPClient.fetch(server.url("/api/v1/users/2"))
            #expect(failed.status == 502)
            let body = try #require(try failed.json() as? [String: Any])
            #expect(body["error"] as? String == "upstream request failed")
            #expect(body["upstream"] as? String == upstream.baseURL.absoluteString)
            #expect((body["detail"] as? String)?.isEmpty == false)
        }
    }

    @Test func anUpstreamThatDoesNotAnswerInTimeIsA502() async throws {
        let slow = try TemporaryStubDirectory([
            "slow/route.json": #"{"method": "GET", "path": "/slow", "variants": {"stuck": {"fault": "hang"}}, "default": "stuck"}"#,
        ])
        var upstreamConfiguration = StubServerConfiguration()
        upstreamConfiguration.hangCapMs = 10_000
        let upstream = try StubServer(stubsAt: slow.url, configuration: upstreamConfiguration)
        defer { upstream.stop() }
        let stubs = try TemporaryStubDirectory(ProxyTests.front)
        try await withServer(stubs: stubs.url, configure: { $0.proxyUnmatched = upstream.baseURL; $0.proxyTimeoutSeconds = 1 }) { server in
            let start = monotonicMs()
            let got = try await HTTPClient.fetch(server.url("/slow"))
            #expect(got.status == 502)
            #expect(monotonicMs() - start >= 900 && monotonicMs() - start < 8000)
            let body = try #require(try got.json() as? [String: Any])
            #expect(body["code"] as? Int == URLError.Code.timedOut.rawValue, "\(got.text)")
        }
    }

    @Test func recordUnmatchedWritesStubsThatLiveReloadServesNext() async throws {
        let stubs = try TemporaryStubDirectory(ProxyTests.front)
        let upstream = try StubServer(stubsAt: Repository.shippedStubs)
        defer { upstream.stop() }
        try await withServer(stubs: stubs.url, configure: {
            $0.proxyUnmatched = upstream.baseURL
            $0.recordProxiedInto = stubs.url
            $0.watch = true
        }) { server in
            let first = try await HTTPClient.fetch(server.url("/api/v1/users/2"))
            let service = "127.0.0.1-\(upstream.port)"
            #expect(FileManager.default.fileExists(atPath: stubs.url.appendingPathComponent("\(service)/get-users-2/route.json").path))
            // Once reloaded, the same request is served from the new stub, not proxied.
            var servedFromStub = false
            for _ in 0..<100 where !servedFromStub {
                let again = try await HTTPClient.fetch(server.url("/api/v1/users/2"))
                #expect(again.body == first.body)
                let last = try await journal(server).last
                servedFromStub = last?["proxied"] as? Bool == false && last?["route"] as? String == "\(service)/get-users-2"
                if !servedFromStub { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(servedFromStub)
            #expect(server.health.problems.isEmpty)
        }
    }

    @Test func recordCommandWritesARunAndServingItGivesTheSameAnswers() async throws {
        let upstream = try StubServer(stubsAt: Repository.shippedStubs)
        defer { upstream.stop() }
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-rec-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let recorder = try RunningDaemon(arguments: ["record", "--upstream", upstream.baseURL.absoluteString, "--stubs", out.path,
                                                     "--host", "127.0.0.1", "--port", "0"])
        let paths = ["/api/v1/users/1", "/api/v1/users/2", "/api/v1/users/999", "/api/v1/users?page=2", "/api/v1/users"]
        for path in paths {
            let got = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "Authorization: Bearer sekret-token-123456", recorder.baseURL + path])
            #expect(got.stdout != "000")
        }
        let stopped = recorder.terminate(signal: SIGTERM)
        #expect(stopped.status == 0)
        #expect(stopped.stdout.contains("127.0.0.1-\(upstream.port)/get-users-id  GET /api/v1/users/{id}  variants: 200, 200-2, 404"), "\(stopped.stdout)")
        #expect(stopped.stdout.contains("request header Authorization: 5 values"))
        var everything = ""
        for file in FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String] ?? [] where file.hasSuffix(".json") {
            everything += (try? String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)) ?? ""
        }
        #expect(!everything.isEmpty && !everything.contains("sekret-token-123456"))
        try await withServer(stubs: out) { replay in
            for path in paths {
                let recorded = try await HTTPClient.fetch(replay.url(path))
                let real = try await HTTPClient.fetch(upstream.url(path))
                #expect(recorded.status == real.status, "\(path)")
                #expect(try JSONSerialization.jsonObject(with: recorded.body) as? NSObject == JSONSerialization.jsonObject(with: real.body) as? NSObject, "\(path)")
            }
        }
    }
}
