import Foundation
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct DelayTests {
    /// Time a request takes in milliseconds, measured by curl in its own process. URLSession in
    /// this test process shares its transfer machinery with the other suites running in parallel,
    /// and was seen adding up to a second to a response under that load, so tight bounds use curl.
    func timed(_ url: URL, headers: [String: String] = [:]) async throws -> (status: Int, ms: Double) {
        var arguments = ["-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}"]
        for (k, v) in headers { arguments += ["-H", "\(k): \(v)"] }
        let result = try await Curl.run(arguments + [url.absoluteString])
        let parts = result.stdout.split(separator: " ")
        return (Int(parts.first ?? "") ?? 0, (Double(parts.last ?? "") ?? 0) * 1000)
    }

    @Test func urlSessionSeesTheDelay() async throws {
        try await withServer { server in
            let start = monotonicMs()
            let got = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Delay": "400"])
            let ms = monotonicMs() - start
            #expect(got.status == 200)
            #expect(ms >= 400 && ms < 4000, "took \(ms) ms")
        }
    }

    @Test func theJournalDatesADelayedRequestWhenItArrived() async throws {
        try await withServer { server in
            let before = Date()
            let got = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Delay": "600"])
            let after = Date()
            #expect(got.status == 200)
            let entry = try #require(server.journal().last)
            // Arrival, not the answer 600 ms later (the clocks may differ by a millisecond's truncation).
            #expect(entry.receivedAt >= before.addingTimeInterval(-0.002), "\(entry.receivedAt) before \(before)")
            #expect(entry.receivedAt < after.addingTimeInterval(-0.5), "\(entry.receivedAt) is not the arrival")
        }
    }

    @Test func headerAndQueryDelaysHoldTheResponse() async throws {
        try await withServer { server in
            let (byHeader, headerMs) = try await timed(server.url("/api/v1/users"), headers: ["X-Stub-Delay": "300"])
            #expect(byHeader == 200)
            #expect(headerMs >= 300 && headerMs < 1300, "took \(headerMs) ms")
            let (_, queryMs) = try await timed(server.url("/api/v1/users?__delay=200"))
            #expect(queryMs >= 200 && queryMs < 1200, "took \(queryMs) ms")
            let (_, noneMs) = try await timed(server.url("/api/v1/users"))
            #expect(noneMs < 500, "took \(noneMs) ms")
        }
    }

    @Test func fileDelaysServiceRouteAndVariantApply() async throws {
        let stubs = try TemporaryStubDirectory([
            "svc/_service.json": #"{"delay": {"ms": 800}}"#,
            "svc/fixed/route.json": #"{"method": "GET", "path": "/fixed"}"#, "svc/fixed/200.json": "{}",
            "svc/uniform/route.json": #"{"method": "GET", "path": "/uniform", "delay": {"min": 100, "max": 160}}"#, "svc/uniform/200.json": "{}",
            "svc/lognormal/route.json": #"{"method": "GET", "path": "/lognormal", "delay": {"median": 80, "sigma": 0.4, "max": 200}}"#,
            "svc/lognormal/200.json": "{}",
            "svc/variant/route.json": #"{"method": "GET", "path": "/variant", "variants": {"200": {"delay": {"ms": 0}}, "503": {"delay": {"ms": 120}}}}"#,
            "svc/variant/200.json": "{}",
        ])
        // Upper bounds below 800 ms prove that the more specific setting replaced the service's
        // 800 ms; they are loose otherwise, since other suites load the machine meanwhile.
        try await withServer(stubs: stubs.url) { server in
            let (_, fixed) = try await timed(server.url("/fixed"))
            #expect(fixed >= 800 && fixed < 1800, "fixed took \(fixed)")
            for _ in 0..<3 {
                let (_, uniform) = try await timed(server.url("/uniform"))
                #expect(uniform >= 100 && uniform < 700, "uniform took \(uniform)")
                let (_, lognormal) = try await timed(server.url("/lognormal"))
                #expect(lognormal < 700, "lognormal took \(lognormal)")
            }
            let (_, zero) = try await timed(server.url("/variant"))
            #expect(zero < 700, "variant override of service delay took \(zero)")
            let (slow, slowMs) = try await timed(server.url("/variant"), headers: ["X-Stub-Variant": "503"])
            #expect(slow == 503)
            #expect(slowMs >= 120 && slowMs < 700, "503 took \(slowMs)")
            let (_, overridden) = try await timed(server.url("/fixed?__delay=0"))
            #expect(overridden < 700, "request delay 0 beats the service delay: took \(overridden)")
        }
    }

    @Test func serverBaseDelayIsAddedToEverything() async throws {
        try await withServer(configure: { $0.baseDelayMs = 200 }) { server in
            let (_, ms) = try await timed(server.url("/api/v1/users"))
            #expect(ms >= 200 && ms < 1200, "took \(ms)")
        }
    }

    @Test func delayedRequestsWaitConcurrentlyNotInTurn() async throws {
        try await withServer { server in
            let session = HTTPClient.shared
            let start = monotonicMs()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<200 {
                    group.addTask { try await HTTPClient.fetch(server.url("/api/v1/users?__delay=500"), session: session).status }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let elapsed = monotonicMs() - start
            #expect(statuses.count == 200 && statuses.allSatisfy { $0 == 200 })
            // In turn this would take 100 s; concurrently about 0.5 s.
            #expect(elapsed < 5000, "200 delayed requests took \(elapsed) ms")
        }
    }

    @Test func stopWhileRequestsAreDelayedClosesThemAndReturns() async throws {
        var configuration = StubServerConfiguration()
        configuration.port = 0
        let server = try StubServer(stubsAt: Repository.shippedStubs, configuration: configuration)
        let url = server.url("/api/v1/users?__delay=10000")
        let pending = Task { await HTTPClient.errorCode(url, timeout: 20) }
        try await waitUntil("the delayed request to be parked") { server.bridge.suspensions.count >= 1 }
        let start = monotonicMs()
        server.stop()
        #expect(monotonicMs() - start < 3000)
        let code = await pending.value
        #expect(code != nil, "the delayed request should fail when the server stops, not succeed")
    }
}
