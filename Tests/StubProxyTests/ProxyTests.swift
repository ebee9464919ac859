import Foundation
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing

/// `--proxy-unmatched`, `--record-unmatched` and `stubd record`, with a second stubd as the real API.
@Suite(.timeLimit(.minutes(3))) struct ProxyTests {
    static let front = [
        "me/route.json": #"{"method": "GET", "path": "/api/v1/users/1"}"#,
        "me/200.json": #"{"stubbed": true}"#,
    ]

    func journal(_ server: StubServer) async throws -> [[String: Any]] {
        let got = try await HTTPClient.fetch(server.url("/__stubd/journal"))
        return try #require((try got.json() as? [String: Any])?["requests"] as? [[String: Any]])
    }

    @Test func unmatchedRequestsGoUpstreamAndAFailingUpstreamIsA502() async throws {
        let stubs = try TemporaryStubDirectory(ProxyTests.front)
        let upstream = try StubServer(stubsAt: Repository.shippedStubs)
        try await withServer(stubs: stubs.url, configure: { $0.proxy(to: upstream.baseURL, timeout: 5) }) { server in
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
        upstreamConfiguration.holdCapMs = 10_000
        let upstream = try StubServer(stubsAt: slow.url, configuration: upstreamConfiguration)
        defer { upstream.stop() }
        let stubs = try TemporaryStubDirectory(ProxyTests.front)
        try await withServer(stubs: stubs.url, configure: { $0.proxy(to: upstream.baseURL, timeout: 1) }) { server in
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
            $0.proxy(to: upstream.baseURL, recordInto: stubs.url)
            $0.watch = true
        }) { server in
            let first = try await HTTPClient.fetch(server.url("/api/v1/users/2"))
            let service = "127.0.0.1-\(upstream.port)"
            // The recording reaches the stub tree within a quarter second.
            let route = stubs.url.appendingPathComponent("\(service)/get-users-2/route.json").path
            #expect(try await eventually(2) { FileManager.default.fileExists(atPath: route) })
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
        let (recorder, out) = try RunningDaemon.recording(upstream)
        defer { try? FileManager.default.removeItem(at: out) }
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

/// `record` in front of a GraphQL API: the recording has one route per operation, with its
/// document and variants by variables, and serving it gives the same answers.
@Suite(.timeLimit(.minutes(3))) struct GraphQLRecordTests {
    @Test func recordingAGraphQLAppSplitsItByOperation() async throws {
        let upstream = try StubServer(stubsAt: Repository.shippedStubs)
        defer { upstream.stop() }
        let (recorder, out) = try RunningDaemon.recording(upstream)
        defer { try? FileManager.default.removeItem(at: out) }
        let bodies = [
            #"{"operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { id name email } }", "variables": {"id": "1"}}"#,
            #"{"operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { id name email } }", "variables": {"id": "5"}}"#,
            #"{"operationName": "CreateUser", "query": "mutation CreateUser($input: CreateUserInput!) { createUser(input: $input) { id } }", "variables": {"input": {"email": "not-an-email", "password": "hunter2-pw"}}}"#,
        ]
        for body in bodies {
            let got = try await Curl.run(["-s", "-H", "Content-Type: application/json", "--data", body, recorder.baseURL + "/graphql"])
            #expect(got.exitCode == 0 && got.stdout.contains("data"), "\(got.stdout)")
        }
        let stopped = recorder.terminate(signal: SIGTERM)
        #expect(stopped.status == 0)
        let service = "127.0.0.1-\(upstream.port)"
        #expect(stopped.stdout.contains("\(service)/GetUser  QUERY /graphql#GetUser  variants: 200, 200-2"), "\(stopped.stdout)")
        #expect(stopped.stdout.contains("\(service)/CreateUser  MUTATION /graphql#CreateUser  variants: 200"), "\(stopped.stdout)")
        let document = try String(contentsOf: out.appendingPathComponent("\(service)/GetUser/operation.graphql"), encoding: .utf8)
        #expect(document.contains("query GetUser($id: ID!)"))
        var everything = ""
        for file in FileManager.default.enumerator(atPath: out.path)?.allObjects as? [String] ?? [] where !file.hasSuffix("/") {
            everything += (try? String(contentsOf: out.appendingPathComponent(file), encoding: .utf8)) ?? ""
        }
        #expect(!everything.isEmpty && !everything.contains("hunter2-pw"))
        try await withServer(stubs: out) { replay in
            for body in bodies.prefix(2) {
                let recorded = try await HTTPClient.fetch(replay.url("/graphql"), method: "POST", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                let real = try await HTTPClient.fetch(upstream.url("/graphql"), method: "POST", headers: ["Content-Type": "application/json"], body: Data(body.utf8))
                #expect(try JSONSerialization.jsonObject(with: recorded.body) as? NSObject == JSONSerialization.jsonObject(with: real.body) as? NSObject, "\(body)")
            }
        }
    }
}

/// The proxy under load and against a hostile path: no thread or per-host queue per waiting
/// request, bodies bounded, and paths kept under the upstream's base path.
@Suite(.timeLimit(.minutes(3))) struct ProxyLimitsTests {
    static let upstreamStubs = [
        "up/slow/route.json": #"{"method": "GET", "path": "/slow", "variants": {"200": {"delay": {"ms": 2500}}}}"#,
        "up/slow/200.json": #"{"slow": true}"#,
        "up/fast/route.json": #"{"method": "GET", "path": "/fast"}"#,
        "up/fast/200.json": #"{"fast": true}"#,
        "up/big/route.json": #"{"method": "GET", "path": "/big"}"#,
        "up/big/200.txt": String(repeating: "x", count: 3_000_000),
    ]

    /// The threads of process `pid` (the daemon's own, so tests running beside this one do not count).
    static func threads(of pid: Int32) -> Int { ProcessThreads.count(of: pid) ?? 0 }

    @Test(.enabled(if: ProcessThreads.canCount, "counting another process's threads reads /proc, which macOS does not have"))
    func manyWaitingCallsNeitherQueueAFastOneNorTakeAThreadEach() async throws {
        let folder = try TemporaryStubDirectory(ProxyLimitsTests.upstreamStubs)
        let upstream = try StubServer(stubsAt: folder.url)
        defer { upstream.stop() }
        let stubs = try TemporaryStubDirectory(ProxyTests.front)
        // The real daemon, whose threads are counted alone.
        let daemon = try RunningDaemon(arguments: ["serve", "--stubs", stubs.url.path, "--host", "127.0.0.1", "--port", "0", "--no-watch",
                                                   "--proxy-unmatched", upstream.baseURL.absoluteString, "--proxy-timeout", "10s"])
        defer { _ = daemon.terminate(signal: SIGTERM) }
        let pid = daemon.pid
        let before = ProxyLimitsTests.threads(of: pid)
        let session = HTTPClient.session(timeout: 15)
        let slowURL = try #require(URL(string: daemon.baseURL + "/slow")), fastURL = try #require(URL(string: daemon.baseURL + "/fast"))
        async let slow: [Int] = withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<60 { group.addTask { try await HTTPClient.fetch(slowURL, session: session).status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        try await waitUntil("the sixty slow calls to wait at the upstream", seconds: 10) { upstream.bridge.suspensions.count >= 60 }
        let during = ProxyLimitsTests.threads(of: pid)
        // Sixty calls wait on the upstream; a seventh-or-later one still goes at once.
        let started = monotonicMs()
        let fast = try await HTTPClient.fetch(fastURL, session: HTTPClient.session(timeout: 15))
        #expect(fast.status == 200 && monotonicMs() - started < 2000, "\(monotonicMs() - started) ms")
        #expect(before > 0 && during - before < 10, "the daemon's threads went from \(before) to \(during) with 60 proxied calls waiting")
        #expect(try await slow.allSatisfy { $0 == 200 })
    }

    @Test func anUpstreamBodyOverTheLimitIsA502AndPathsStayUnderTheBase() async throws {
        let folder = try TemporaryStubDirectory(ProxyLimitsTests.upstreamStubs)
        let upstream = try StubServer(stubsAt: folder.url)
        defer { upstream.stop() }
        let stubs = try TemporaryStubDirectory(ProxyTests.front)
        let base = upstream.baseURL.appendingPathComponent("fast")
        try await withServer(stubs: stubs.url, configure: { $0.proxy(to: upstream.baseURL, maxBodyBytes: 1_000_000) }) { server in
            let big = try await HTTPClient.fetch(server.url("/big"))
            #expect(big.status == 502 && big.text.contains("over 1000000 bytes"), "\(big.status) \(big.text.prefix(200))")
        }
        try await withServer(stubs: stubs.url, configure: { $0.proxy(to: base) }) { server in
            let socket = try RawSocket(port: server.port)
            socket.send(Array("GET /../../big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            _ = await socket.read()
            // The upstream saw the path under its base (/fast/big), not /big (that one was the first test's).
            #expect(upstream.journal().map(\.request.path) == ["/big", "/fast/big"], "\(upstream.journal().map(\.request.path))")
        }
    }
}

extension RunningDaemon {
    /// `stubd record` in front of `upstream`, writing into a new temporary folder (returned).
    static func recording(_ upstream: StubServer) throws -> (RunningDaemon, URL) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-rec-\(UUID().uuidString)")
        let recorder = try RunningDaemon(arguments: ["record", "--upstream", upstream.baseURL.absoluteString, "--stubs", out.path,
                                                     "--host", "127.0.0.1", "--port", "0"])
        return (recorder, out)
    }
}
