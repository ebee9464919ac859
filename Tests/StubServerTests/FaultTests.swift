import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// What each fault looks like to clients. These expectations are the table in docs/stub-format.md.
@Suite(.timeLimit(.minutes(3))) struct FaultTests {
    static let table: [(fault: String, urlError: URLError.Code, curlExit: Int32)] = [
        ("reset", .networkConnectionLost, 56),
        ("empty", .badServerResponse, 52),
        ("garbage", .unsupportedURL, 1),
        ("truncate", .unknown, 18),
    ]

    @Test(arguments: FaultTests.table.map(\.fault))
    func urlSessionSeesTheDocumentedError(fault: String) async throws {
        let expected = FaultTests.table.first { $0.fault == fault }!
        try await withServer { server in
            let byQuery = await HTTPClient.errorCode(server.url("/api/v1/users?__fault=\(fault)"))
            let byHeader = await HTTPClient.errorCode(server.url("/api/v1/users"), headers: ["X-Stub-Fault": fault])
            #if os(Linux)
            #expect(byQuery == expected.urlError)
            #expect(byHeader == expected.urlError)
            #else
            // Apple's URLSession names some of these differently; the table is measured on Linux.
            #expect(byQuery != nil && byHeader != nil)
            #endif
            // The server is unharmed.
            let after = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(after.status == 200)
        }
    }

    @Test(arguments: FaultTests.table.map(\.fault))
    func curlReportsTheDocumentedExitCode(fault: String) async throws {
        let expected = FaultTests.table.first { $0.fault == fault }!
        try await withServer { server in
            let result = try await Curl.run(["-s", "-o", "/dev/null", server.url("/api/v1/users?__fault=\(fault)").absoluteString])
            #expect(result.exitCode == expected.curlExit)
        }
    }

    @Test func truncateKeepsTheVariantsStatusAndHeaders() async throws {
        try await withServer { server in
            let result = try await Curl.run(["-s", "-D", "-", "-o", "/dev/null", server.url("/api/v1/users/999?__fault=truncate").absoluteString])
            #expect(result.exitCode == 18)
            #expect(result.stdout.hasPrefix("HTTP/1.1 404 Not Found"))
            #expect(result.stdout.contains("Content-Type: application/json; charset=utf-8"))
        }
    }

    @Test func hangTimesTheClientOutAndIsFreedAtTheCap() async throws {
        try await withServer(configure: { $0.holdCapMs = 400 }) { server in
            let code = await HTTPClient.errorCode(server.url("/api/v1/users?__fault=hang"), timeout: 0.3)
            #expect(code == .timedOut)
            let start = monotonicMs()
            let patient = try await Curl.run(["-s", "-o", "/dev/null", "-m", "5", server.url("/api/v1/users?__fault=hang").absoluteString])
            let waited = monotonicMs() - start
            #expect(patient.exitCode == 52, "after the cap the connection closes with no reply")
            // The exit code above already shows the cap closed it; this bound only catches a cap far too late.
            #expect(waited >= 350 && waited < 4900, "waited \(waited) ms")
            let timedOut = try await Curl.run(["-s", "-o", "/dev/null", "-m", "0.2", server.url("/api/v1/users?__fault=hang").absoluteString])
            #expect(timedOut.exitCode == 28)
        }
    }

    @Test func faultVariantsFromFilesAndDelayedFaults() async throws {
        let stubs = try TemporaryStubDirectory([
            "r/route.json": #"{"method": "GET", "path": "/flaky", "variants": {"drop": {"fault": "reset"}, "late-drop": {"fault": "empty", "delay": {"ms": 200}}}}"#,
            "r/200.json": #"{"ok": true}"#,
        ])
        try await withServer(stubs: stubs.url) { server in
            #expect(await HTTPClient.errorCode(server.url("/flaky"), headers: ["X-Stub-Variant": "drop"]) == .networkConnectionLost)
            let start = monotonicMs()
            #expect(await HTTPClient.errorCode(server.url("/flaky?__variant=late-drop")) == .badServerResponse)
            #expect(monotonicMs() - start >= 200)
            let normal = try await HTTPClient.fetch(server.url("/flaky"))
            #expect(normal.status == 200)
        }
    }

    /// docs/moya.md's "Timeouts on Linux": a request's own `timeoutInterval` is honoured by
    /// URLSession on Linux too, with the session's 60 s default left alone.
    @Test func aRequestsOwnTimeoutIntervalIsHonoured() async throws {
        try await withServer { server in
            var request = URLRequest(url: server.url("/api/v1/users?__fault=hang"))
            request.timeoutInterval = 1
            let session = URLSession(configuration: .ephemeral)
            #expect(session.configuration.timeoutIntervalForRequest == 60)
            let start = monotonicMs()
            do {
                _ = try await session.data(for: request)
                Issue.record("a hang answered")
            } catch let error as URLError {
                #expect(error.code == .timedOut)
            }
            let elapsed = monotonicMs() - start
            #expect(elapsed > 900 && elapsed < 5000, "\(elapsed) ms")
        }
    }

    /// `slow-headers`: the head trickles out over the delay, then the body; a client patient
    /// between pieces gets the whole answer, one with a shorter timeout times out.
    @Test func slowHeadersTricklesTheHeadOverTheDelay() async throws {
        try await withServer { server in
            let socket = try RawSocket(port: server.port)
            socket.send(Array("GET /api/v1/users/1?__fault=slow-headers&__delay=1000 HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            let (reads, received) = try await OffPool.run { () -> ([(at: Double, bytes: Int)], [UInt8]) in
                let start = monotonicMs()
                var reads: [(at: Double, bytes: Int)] = []
                var received: [UInt8] = []
                while true {
                    let chunk = socket.readSome(timeoutSeconds: 3)
                    if chunk.isEmpty { break }
                    reads.append((monotonicMs() - start, chunk.count))
                    received += chunk
                }
                return (reads, received)
            }
            let text = String(decoding: received, as: UTF8.self)
            let direct = try await HTTPClient.fetch(server.url("/api/v1/users/1"))
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.hasSuffix(direct.text), "\(text)")
            #expect(reads.count >= 5, "the head came in \(reads.count) reads")
            #expect((reads.last?.at ?? 0) >= 800, "the last piece came after \(reads.last?.at ?? 0) ms")
            #expect((reads.first?.at ?? 1000) < 300, "the first piece came at once")
            let patient = try await HTTPClient.fetch(server.url("/api/v1/users/1?__fault=slow-headers&__delay=600"))
            #expect(patient.status == 200 && patient.text == direct.text)
            let hasty = await HTTPClient.errorCode(server.url("/api/v1/users/1?__fault=slow-headers&__delay=2000"), timeout: 0.04)
            #expect(hasty == .timedOut)
            let curl = try await Curl.run(["-s", "-o", "/dev/null", "-m", "0.3", server.url("/api/v1/users/1?__fault=slow-headers&__delay=2000").absoluteString])
            #expect(curl.exitCode == 28)
            // The hasty client may give up before its request is even sent (40 ms on a busy
            // machine), so its record is not counted on; the other three always arrive.
            let records = await server.waitForRequests(route: "app/user", count: 4)
            #expect(records.filter { $0.fault == .slowHeaders }.count >= 3)
        }
    }
}
