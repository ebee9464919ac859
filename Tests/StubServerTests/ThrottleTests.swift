import Foundation
import StubCore
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ThrottleTests {
    @Test func aThrottledBodyArrivesWholeAtTheRequestedRate() async throws {
        try await withServer { server in
            let file = try Data(contentsOf: Repository.shippedStubs.appendingPathComponent("app/users/200.json"))
            let result = try await Curl.run(["-s", "-o", "-", "-w", "\n%{time_total}", server.url("/api/v1/users?__throttle=1000").absoluteString])
            let seconds = try #require(Double(result.stdout.split(separator: "\n").last ?? ""))
            #expect(Data(result.stdout.utf8.dropLast(result.stdout.split(separator: "\n").last!.count + 1)) == file)
            // 654 bytes at 1000 B/s: the last 100-byte chunk is due at 0.6 s.
            let expected = Double(file.count - file.count % 100) / 1000
            #expect(seconds >= expected - 0.05 && seconds < expected + 1.5, "took \(seconds) s for \(file.count) bytes")
        }
    }

    @Test func throttleFromStubFilesAndWithADelay() async throws {
        let body = String(repeating: "x", count: 2000)
        let stubs = try TemporaryStubDirectory([
            "s/_service.json": #"{"throttle": {"bytesPerSecond": 4000}}"#,
            "s/slow/route.json": #"{"method": "GET", "path": "/slow", "variants": {"200-slower": {"throttle": {"bytesPerSecond": 2000}, "delay": {"ms": 200}}}}"#,
            "s/slow/200.txt": body,
            "s/slow/200-slower.txt": body,
        ])
        try await withServer(stubs: stubs.url) { server in
            var start = monotonicMs()
            let service = try await HTTPClient.fetch(server.url("/slow"))
            let serviceMs = monotonicMs() - start
            #expect(service.text == body)
            #expect(serviceMs >= 400, "2000 bytes at 4000 B/s took \(serviceMs) ms")
            start = monotonicMs()
            let slower = try await HTTPClient.fetch(server.url("/slow"), headers: ["X-Stub-Variant": "200-slower"])
            let slowerMs = monotonicMs() - start
            #expect(slower.text == body)
            #expect(slowerMs >= 1100, "200 ms delay then 2000 bytes at 2000 B/s took \(slowerMs) ms")
        }
    }

    @Test func adminOverrideThrottlesARoute() async throws {
        try await withServer { server in
            let put = try await AdminClient(server: server).call("PUT", "/routes/app/users", json: #"{"throttle": {"bytesPerSecond": 1000}}"#)
            #expect(put.status == 200)
            let timed = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{size_download} %{time_total}", server.url("/api/v1/users").absoluteString])
            let parts = timed.stdout.split(separator: " ")
            #expect(parts.first == "654")
            #expect((Double(parts.last ?? "") ?? 0) >= 0.55)
            #expect(try await AdminClient(server: server).call("PUT", "/routes/app/users", json: #"{"throttle": {"bytesPerSecond": 0}}"#).status == 400)
        }
    }

    @Test func aClientThatGivesUpGetsPartOfTheBodyAndTheServerCarriesOn() async throws {
        try await withServer { server in
            let partial = try await Curl.run(["-s", "-o", "/dev/null", "-m", "0.3", "-w", "%{size_download}", server.url("/api/v1/users?__throttle=500").absoluteString])
            #expect(partial.exitCode == 28)
            let received = Int(partial.stdout) ?? -1
            #expect(received > 0 && received < 654, "received \(received) bytes")
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users")).status == 200)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users?__throttle=0")).status == 400)
        }
    }

    @Test func stopDuringAThrottledBodyReturnsPromptly() async throws {
        let server = try StubServer(stubsAt: Repository.shippedStubs, port: 0)
        let url = server.url("/api/v1/users?__throttle=50")
        let pending = Task { try? await Curl.run(["-s", "-o", "/dev/null", "-m", "20", "-w", "%{size_download}", url.absoluteString]) }
        try await waitUntil("the throttled request to be journaled") { server.control.journal(session: nil, filter: JournalFilter()).count >= 1 }
        let start = monotonicMs()
        server.stop()
        #expect(monotonicMs() - start < 3000)
        let result = await pending.value
        #expect(result?.exitCode != 0, "the cut-off body is an error for the client")
    }

    #if os(Linux)
    /// What docs/stub-format.md says of URLSession on Linux: a request timeout does not stop a body
    /// whose bytes keep arriving, however long it takes in total.
    @Test func urlSessionOnLinuxKeepsReadingAThrottledBodyPastItsTimeout() async throws {
        try await withServer { server in
            let start = monotonicMs()
            let fetched = try await HTTPClient.fetch(server.url("/api/v1/users?__throttle=300"), timeout: 1)
            let elapsed = monotonicMs() - start
            #expect(fetched.status == 200)
            #expect(elapsed > 1500, "654 bytes at 300 B/s outlast the 1 s timeout: \(elapsed) ms")
        }
    }
    #endif
}
