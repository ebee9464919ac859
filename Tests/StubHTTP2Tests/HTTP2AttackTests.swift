import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// The HTTP/2 attack classes with public advisories, sent by `bench/h2hostile.py` (Python's h2
/// and raw frames): each hostile connection is ended, a probe on another connection keeps being
/// answered within a second, and memory stays bounded.
@Suite(.timeLimit(.minutes(5)), .requires(.httpx)) struct HTTP2AttackTests {
    struct Outcome: Decodable {
        let attack: String
        let goaway_code: String?
        let ended_by: String?
        let ended_after_s: Double?
        let probe_max_ms: Double
        let probe_failures: Int
        let rss_before_kb: Int?
        let rss_max_kb: Int?
    }

    /// Runs one attack for up to `seconds` against `server`.
    static func attack(_ name: String, _ server: StubServer, _ tls: TLSFixture, path: String = "/big", seconds: Int = 8) async throws -> Outcome {
        let script = Repository.root.appendingPathComponent("bench/h2hostile.py").path
        let run = try await Subprocess.run("/usr/bin/env", ["python3", script, "--attack", name, "--json", "--seconds", "\(seconds)",
                                                            "--ca", tls.directory.authorityCertificate, "--pid", "\(getpid())",
                                                            "--probe", server.tlsURL("/small").absoluteString, server.tlsURL(path).absoluteString])
        let line = try #require(run.stdout.split(separator: "\n").last, "\(run.stdout) \(run.stderr)")
        return try JSONDecoder().decode(Outcome.self, from: Data(line.utf8))
    }

    func stubs() throws -> TemporaryStubDirectory {
        try TemporaryStubDirectory([
            "app/small/route.json": #"{"method": "GET", "path": "/small", "variants": {"200": {"body": {"ok": true}}}}"#,
            "app/big/route.json": #"{"method": "GET", "path": "/big"}"#,
            "app/big/200.json": "[" + Array(repeating: #""0123456789abcdef0123456789abcdef""#, count: 20_000).joined(separator: ",") + "]",
        ])
    }

    /// Floods end with GOAWAY(ENHANCE_YOUR_CALM) as soon as they pass their bound.
    @Test(arguments: ["rapid-reset", "continuation-flood", "hpack-bomb", "settings-flood", "ping-flood", "empty-frames"])
    func floodsAreCutOff(attack: String) async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0) }) { server in
            let outcome = try await Self.attack(attack, server, tls, path: "/small")
            #expect(outcome.ended_by == "GOAWAY" && outcome.goaway_code == "ENHANCE_YOUR_CALM", "\(outcome)")
            #expect((outcome.ended_after_s ?? 99) < 2, "\(outcome)")
            #expect(outcome.probe_failures == 0 && outcome.probe_max_ms < 1000, "\(outcome)")
            #expect((outcome.rss_max_kb ?? 0) - (outcome.rss_before_kb ?? 0) < 64 * 1024, "\(outcome)")
        }
    }

    /// Holding answers behind a closed window, or streams whose bodies never come: the idle and
    /// body deadlines end them, as they end slow HTTP/1.1 clients.
    @Test(arguments: ["zero-window", "slow-streams"])
    func holdOpensEndAtTheDeadlines(attack: String) async throws {
        let tls = try TLSFixture(), stubs = try stubs()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0); $0.idleTimeoutSeconds = 2; $0.headerTimeoutMs = 1000; $0.bodyTimeoutMs = 1000 }) { server in
            let outcome = try await Self.attack(attack, server, tls, seconds: 10)
            #expect(outcome.ended_by != nil && (outcome.ended_after_s ?? 99) < 8, "\(outcome)")
            #expect(outcome.probe_failures == 0 && outcome.probe_max_ms < 1000, "\(outcome)")
            #expect((outcome.rss_max_kb ?? 0) - (outcome.rss_before_kb ?? 0) < 256 * 1024, "\(outcome)")
        }
    }
}
