import Foundation
import StubServer
import StubdClient
import StubTestSupport
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HTTPS front and the admin paths over HTTP/2: a half-sent ClientHello costs nothing while
/// it waits, the live journal streams at once, and overrides refuse what they cannot hold.
@Suite(.timeLimit(.minutes(3))) struct HTTP2FrontTests {
    /// This process's CPU time in ms (the server runs in it).
    static func cpuMs() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000 + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000
    }

    /// Ten clients that send the first bytes of a hello and stop: the front waits for the rest
    /// without spinning (the bytes stay readable while only peeked at), and serves others meanwhile.
    @Test func partialHellosDoNotSpinTheFront() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let sockets = try (0..<10).map { _ in try RawSocket(port: server.tlsPort!) }
            for socket in sockets { socket.send([22, 3, 1, 2, 0, 1, 0, 1, 252, 3, 3]) }
            let before = Self.cpuMs(), start = monotonicMs()
            // The window measured: a spinning front would burn a core through it.
            while monotonicMs() - start < 500 {
                let ok = try await Curl.run(["-s", "--http2", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", tls.directory.authorityCertificate,
                                             server.tlsURL("/api/v1/users/1").absoluteString])
                #expect(ok.stdout == "200")
            }
            let spent = Self.cpuMs() - before
            #expect(spent < 300, "\(spent) ms of CPU in 500 ms")
            _ = sockets
        }
    }

    /// The dashboard's live journal over HTTP/2: a request made after the stream opened shows
    /// within a second, not at the 15 s keep-alive.
    @Test(.requires(.httpx)) func theLiveJournalStreamsOverHTTP2() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let script = """
                import sys, time, httpx
                base = sys.argv[2]
                with httpx.Client(http2=True, verify=sys.argv[1], timeout=20) as c:
                    with c.stream("GET", base + "/__stubd/journal/stream?scope=all") as s:
                        lines = s.iter_lines()
                        for line in lines:
                            if line.startswith("event: hello"):
                                break
                        start = time.monotonic()
                        c.get(base + "/api/v1/users/1?marker=1")
                        for line in lines:
                            if "marker" in line:
                                print(s.http_version, round((time.monotonic() - start) * 1000))
                                break
                """
            var base = server.tlsBaseURL!.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let run = try await Subprocess.run("/usr/bin/env", ["python3", "-c", script, tls.directory.authorityCertificate, base])
            let parts = run.stdout.split(separator: " ")
            #expect(parts.first == "HTTP/2", "\(run.stdout) \(run.stderr)")
            #expect((parts.last.flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 99_999) < 1000, "\(run.stdout)")
        }
    }

    /// The admin API's guard and the secret policy hold over HTTP/2 too: another origin or another
    /// Host name neither reads nor changes anything, and credentials reach the journal redacted.
    @Test func theAdminGuardAndSecretPolicyHoldOverHTTP2() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let ca = tls.directory.authorityCertificate
            let override = ["-s", "--http2", "--cacert", ca, "-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"variant": "404"}"#,
                            "-o", "/dev/null", "-w", "%{http_version} %{http_code}", server.tlsURL("/__stubd/routes/app/user").absoluteString]
            #expect(try await Curl.run(override + ["-H", "Origin: http://evil.test"]).stdout == "2 403")
            #expect(try await Curl.run(override + ["-H", "Host: evil.test"]).stdout == "2 421")
            let read = try await Curl.run(["-s", "--http2", "--cacert", ca, "-H", "Origin: http://evil.test", "-o", "/dev/null", "-w", "%{http_code}",
                                           server.tlsURL("/__stubd/journal").absoluteString])
            #expect(read.stdout == "403")
            _ = try await Curl.run(["-s", "--http2", "--cacert", ca, "-H", "Authorization: Bearer s3cr3t-value-123", "-o", "/dev/null",
                                    server.tlsURL("/api/v1/users/1?api_key=k3y-val-456").absoluteString])
            let journal = try await Curl.run(["-s", "--http2", "--cacert", ca, server.tlsURL("/__stubd/journal").absoluteString])
            #expect(journal.stdout.contains("users/1") && journal.stdout.contains("<redacted"), "\(journal.stdout)")
            #expect(!journal.stdout.contains("s3cr3t-value-123") && !journal.stdout.contains("k3y-val-456"))
            let after = try await Curl.run(["-s", "--http2", "--cacert", ca, "-o", "/dev/null", "-w", "%{http_code}", server.tlsURL("/api/v1/users/1").absoluteString])
            #expect(after.stdout == "200", "no override was made")
        }
    }

    /// An override takes a fault's name; `rst-stream`'s code and byte count go per request or in a file.
    @Test func overridesRefuseRstStreamParameters() async throws {
        try await withServer { server in
            let result = try await Curl.run(["-s", "-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"fault": "rst-stream=refused-stream"}"#,
                                             "-w", "\n%{http_code}", server.url("/__stubd/routes/app/user").absoluteString])
            #expect(result.stdout.hasSuffix("\n400") && result.stdout.contains("expected a fault's name"), "\(result.stdout)")
            let plain = try await Curl.run(["-s", "-o", "/dev/null", "-X", "PUT", "-H", "Content-Type: application/json", "--data", #"{"fault": "rst-stream"}"#,
                                            "-w", "%{http_code}", server.url("/__stubd/routes/app/user").absoluteString])
            #expect(plain.stdout == "200")
        }
    }
}
