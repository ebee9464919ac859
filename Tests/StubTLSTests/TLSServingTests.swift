import Foundation
import StubServer
import Testing
import StubTestSupport

/// `serve --tls` over real sockets: curl and Python trust the server with the authority and
/// refuse it without; everything plain HTTP does works the same over TLS. Faults and refusals are
/// checked here over HTTP/1.1 (`--http1.1`), the protocol libmicrohttpd serves; HTTP/2's column is
/// `HTTP2ServingTests`'.
@Suite(.timeLimit(.minutes(3))) struct TLSServingTests {
    /// What each fault gives curl over TLS (the TLS column of the fault table).
    static let faults: [(fault: String, curlExit: Int32)] = [
        ("reset", 56), ("empty", 52), ("garbage", 56), ("truncate", 18),
    ]

    @Test func curlAndPythonTrustTheServerWithTheAuthorityOnly() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let url = server.tlsURL("/api/v1/users/1").absoluteString
            let trusted = try await Curl.run(["-sS", "--cacert", tls.directory.authorityCertificate, url])
            #expect(trusted.exitCode == 0, "\(trusted.stderr)")
            let plain = try await Curl.run(["-sS", server.url("/api/v1/users/1").absoluteString])
            #expect(trusted.stdout == plain.stdout && trusted.stdout.contains("\"id\": 1"))
            let untrusted = try await Curl.run(["-sS", url])
            #expect(untrusted.exitCode == 60, "unverified certificate: \(untrusted.stderr)")
            // By name too: localhost is in the certificate.
            let byName = try await Curl.run(["-sS", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", tls.directory.authorityCertificate,
                                             "https://localhost:\(server.tlsPort!)/api/v1/users"])
            #expect(byName.stdout == "200")
            let python = """
                import ssl, sys, urllib.request
                ctx = ssl.create_default_context(cafile=sys.argv[2]) if len(sys.argv) > 2 else ssl.create_default_context()
                try:
                    print(urllib.request.urlopen(sys.argv[1], context=ctx).status)
                except urllib.error.URLError as e:
                    print(type(e.reason).__name__)
                """
            let withCA = try await Subprocess.run("/usr/bin/env", ["python3", "-c", python, url, tls.directory.authorityCertificate])
            #expect(withCA.stdout == "200\n", "\(withCA.stderr)")
            let withoutCA = try await Subprocess.run("/usr/bin/env", ["python3", "-c", python, url])
            #expect(withoutCA.stdout == "SSLCertVerificationError\n", "\(withoutCA.stderr)")
        }
    }

    @Test func urlSessionRefusesAnUntrustedServer() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let code = await HTTPClient.errorCode(server.tlsURL("/api/v1/users"))
            #if os(Linux)
            // FoundationNetworking reports libcurl's "SSL certificate problem" as -1.
            #expect(code == .unknown)
            #else
            #expect(code == .serverCertificateUntrusted)
            #endif
        }
    }

    @Test func journalRecordsTheSchemeAndTheAdminAPIWorksOverTLS() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let ca = tls.directory.authorityCertificate
            let override = try await Curl.run(["-sS", "--cacert", ca, "-X", "PUT", "-H", "Content-Type: application/json",
                                               "-d", #"{"variant": "404"}"#, server.tlsURL("/__stubd/routes/app/user").absoluteString])
            #expect(override.exitCode == 0 && override.stdout.contains("404"), "\(override.stdout)\(override.stderr)")
            let secure = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca, server.tlsURL("/api/v1/users/1").absoluteString])
            #expect(secure.stdout == "404")
            _ = try await Curl.run(["-s", "-o", "/dev/null", server.url("/api/v1/users").absoluteString])
            let journal = try await Curl.run(["-sS", "--cacert", ca, server.tlsURL("/__stubd/journal").absoluteString])
            let entries = try #require((try JSONSerialization.jsonObject(with: Data(journal.stdout.utf8)) as? [String: Any])?["requests"] as? [[String: Any]])
            let schemes = entries.map { "\($0["path"]!) \($0["scheme"]!)" }
            #expect(schemes == ["/api/v1/users/1 https", "/api/v1/users http"])
        }
    }

    @Test func tlsOnlyServesNoPlainHTTP() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0, only: true) }) { server in
            #expect(server.baseURL.scheme == "https" && server.tlsPort == server.port)
            let ok = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", tls.directory.authorityCertificate,
                                         server.url("/api/v1/users").absoluteString])
            #expect(ok.stdout == "200")
            let plain = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(server.port)/api/v1/users"])
            #expect(plain.stdout != "200", "plain HTTP to the TLS port is not served")
        }
    }

    @Test(arguments: TLSServingTests.faults.map(\.fault))
    func faultsGiveTheDocumentedErrorsOverTLS(fault: String) async throws {
        let expected = TLSServingTests.faults.first { $0.fault == fault }!
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let result = try await Curl.run(["-sS", "--http1.1", "-o", "/dev/null", "--cacert", tls.directory.authorityCertificate,
                                             server.tlsURL("/api/v1/users/1?__fault=\(fault)").absoluteString])
            #expect(result.exitCode == expected.curlExit, "\(result.stderr)")
            let after = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", tls.directory.authorityCertificate,
                                            server.tlsURL("/api/v1/users").absoluteString])
            #expect(after.stdout == "200", "the server is unharmed")
        }
    }

    /// Over TLS stubd cannot write on the socket itself, so a head over the limit is refused by
    /// libmicrohttpd's queue: the same JSON 431 and 414 as over plain HTTP.
    @Test func oversizedHeadsGetTheJSONRefusalOverTLSToo() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let limit = server.configuration.maxHeadBytes
            let ca = tls.directory.authorityCertificate
            let header = try await Curl.run(["-s", "--http1.1", "-D", "-", "--cacert", ca, "-H", "X-Pad: \(String(repeating: "a", count: limit + 500))",
                                             server.tlsURL("/api/v1/users/1").absoluteString])
            let target = try await Curl.run(["-s", "--http1.1", "-D", "-", "--cacert", ca,
                                             server.tlsURL("/api/v1/users/1?q=\(String(repeating: "a", count: limit + 500))").absoluteString])
            for (status, result) in [("431", header), ("414", target)] {
                #expect(result.stdout.hasPrefix("HTTP/1.1 \(status)"), "\(result.stdout.prefix(300))")
                #expect(result.stdout.contains("application/json") && result.stdout.contains("\(limit) bytes for the request head"))
            }
            let after = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca, server.tlsURL("/api/v1/users/1").absoluteString])
            #expect(after.stdout == "200")
        }
    }

    @Test func truncateOverTLSKeepsTheVariantsHeadAndSendsHalfTheBody() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let result = try await Curl.run(["-s", "--http1.1", "-D", "-", "--cacert", tls.directory.authorityCertificate,
                                             server.tlsURL("/api/v1/users/999?__fault=truncate").absoluteString])
            #expect(result.exitCode == 18)
            #expect(result.stdout.hasPrefix("HTTP/1.1 404 Not Found"))
            #expect(result.stdout.contains("Content-Type: application/json; charset=utf-8"))
        }
    }

    @Test func delaysHangsAndThrottlesWorkOverTLS() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0); $0.holdCapMs = 400 }) { server in
            let ca = tls.directory.authorityCertificate
            let start = monotonicMs()
            let delayed = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca, "-H", "X-Stub-Delay: 300",
                                              server.tlsURL("/api/v1/users").absoluteString])
            #expect(delayed.stdout == "200" && monotonicMs() - start >= 300)
            let hung = try await Curl.run(["-s", "-o", "/dev/null", "-m", "0.3", "--cacert", ca, server.tlsURL("/api/v1/users?__fault=hang").absoluteString])
            #expect(hung.exitCode == 28)
            // A throttled body through TLS: the same bytes, paced (the body is over 600 bytes).
            let paced = monotonicMs()
            let throttled = try await Curl.run(["-s", "--cacert", ca, "-H", "X-Stub-Throttle: 2000", server.tlsURL("/api/v1/users").absoluteString])
            let plain = try await Curl.run(["-s", server.url("/api/v1/users").absoluteString])
            #expect(throttled.stdout == plain.stdout && throttled.stdout.utf8.count > 600)
            #expect(monotonicMs() - paced >= 250)
            // slow-headers cannot pace bytes below TLS: the whole answer waits its delay instead.
            let slow = monotonicMs()
            let trickled = try await Curl.run(["-s", "-w", "%{http_code}", "--cacert", ca, "-o", "/dev/null",
                                               server.tlsURL("/api/v1/users?__fault=slow-headers&__delay=300").absoluteString])
            #expect(trickled.stdout == "200" && monotonicMs() - slow >= 300, "\(trickled.stdout)")
        }
    }
}
