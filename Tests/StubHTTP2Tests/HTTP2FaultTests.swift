import Foundation
import StubServer
import StubTestSupport
import Testing

/// Faults over HTTP/2: what curl and nghttp see for each, and that a stream's fault leaves the
/// other streams of its connection alone (two tests may share a pooled connection).
@Suite(.timeLimit(.minutes(3))) struct HTTP2FaultTests {
    /// What curl (7.88, nghttp2) reports for each fault over HTTP/2: its exit code and words.
    static let table: [(fault: String, exit: Int32, says: String)] = [
        ("reset", 92, "INTERNAL_ERROR"),
        ("empty", 92, "CANCEL"),
        ("garbage", 92, "PROTOCOL_ERROR"),
        ("truncate", 92, "INTERNAL_ERROR"),
        ("rst-stream", 92, "CANCEL"),
        ("rst-stream=enhance-your-calm", 92, "ENHANCE_YOUR_CALM"),
        ("rst-stream-after=10:internal-error", 92, "INTERNAL_ERROR"),
        // REFUSED_STREAM tells the client nothing was processed: curl retries, then gives up.
        ("rst-stream=refused-stream", 56, "tried 5 times"),
        ("goaway-abrupt", 18, "not closed cleanly before end of the underlying stream"),
        ("goaway", 0, ""),
    ]

    @Test(arguments: HTTP2FaultTests.table.map(\.fault))
    func curlSeesEachFault(fault: String) async throws {
        let expected = Self.table.first { $0.fault == fault }!
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let ca = tls.directory.authorityCertificate
            let result = try await Curl.run(["-sS", "--http2", "-o", "/dev/null", "--cacert", ca,
                                             server.tlsURL("/api/v1/users/1?__fault=\(fault)").absoluteString])
            #expect(result.exitCode == expected.exit, "\(result.stderr)")
            #expect(expected.says.isEmpty ? result.stderr.isEmpty : result.stderr.contains(expected.says), "\(result.stderr)")
            let after = try await Curl.run(["-s", "--http2", "-o", "/dev/null", "-w", "%{http_code}", "--cacert", ca, server.tlsURL("/api/v1/users").absoluteString])
            #expect(after.stdout == "200", "the server is unharmed")
        }
    }

    /// `rst-stream-after=N` sends the head and N body bytes, then RST_STREAM with its code.
    @Test(.requires(.nghttp)) func resetAfterBytesSendsTheHeadAndThoseBytes() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let run = try await Subprocess.run(RequiredTool.nghttp.executable!, ["-v", "--no-verify-peer",
                                                server.tlsURL("/api/v1/users/1?__fault=rst-stream-after=10:refused-stream").absoluteString])
            #expect(run.stdout.contains(":status: 200"), "\(run.stdout)")
            #expect(run.stdout.contains("recv DATA frame <length=10,"), "\(run.stdout)")
            #expect(run.stdout.contains("recv RST_STREAM frame") && run.stdout.contains("error_code=REFUSED_STREAM"), "\(run.stdout)")
        }
    }

    /// A fault on one stream: the other streams of the same connection, sent together with it,
    /// are answered.
    @Test(.requires(.nghttp)) func aStreamsFaultLeavesItsNeighboursAlone() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            for fault in ["reset", "rst-stream", "garbage", "empty", "truncate"] {
                let urls = [server.tlsURL("/api/v1/users/1?__delay=50").absoluteString,
                            server.tlsURL("/api/v1/users/2?__fault=\(fault)").absoluteString,
                            server.tlsURL("/api/v1/users/3?__delay=100").absoluteString]
                let run = try await Subprocess.run(RequiredTool.nghttp.executable!, ["-nv", "--no-verify-peer"] + urls)
                let resets = run.stdout.components(separatedBy: "recv RST_STREAM frame").count - 1
                #expect(resets == 1, "\(fault): \(run.stdout)")
                #expect(run.stdout.components(separatedBy: ":status: 200").count - 1 >= 2, "\(fault): \(run.stdout)")
                #expect(!run.stdout.contains("recv GOAWAY"), "\(fault): \(run.stdout)")
            }
        }
    }

    /// `goaway`: the answer, then GOAWAY(NO_ERROR) naming its stream; curl's next request on the
    /// same command line opens a new connection.
    @Test func gracefulGoAwaySendsTheNextRequestToANewConnection() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let ca = tls.directory.authorityCertificate
            let plain = try await Curl.run(["-s", "--http2", "--cacert", ca, "-o", "/dev/null", "-o", "/dev/null", "-w", "%{num_connects}\n",
                                            server.tlsURL("/api/v1/users/1").absoluteString, server.tlsURL("/api/v1/users/2").absoluteString])
            #expect(plain.stdout == "1\n0\n", "without the fault the second request reuses the connection: \(plain.stdout)")
            let faulted = try await Curl.run(["-s", "--http2", "--cacert", ca, "-o", "/dev/null", "-o", "/dev/null", "-w", "%{http_code} %{num_connects}\n",
                                              server.tlsURL("/api/v1/users/1?__fault=goaway").absoluteString, server.tlsURL("/api/v1/users/2").absoluteString])
            #expect(faulted.stdout == "200 1\n200 1\n", "\(faulted.stdout)")
        }
    }

    /// `--http2-max-streams`: the limit is announced in SETTINGS; streams past it are refused with
    /// REFUSED_STREAM (a client that sent them before it read the SETTINGS retries them), never served.
    @Test(.requires(.nghttp)) func maxStreamsIsAnnouncedAndKept() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0); $0.tls?.http2MaxStreams = 2 }) { server in
            let urls = (1...4).map { server.tlsURL("/api/v1/users/\($0)?__delay=300").absoluteString }
            let run = try await Subprocess.run(RequiredTool.nghttp.executable!, ["-nv", "--no-verify-peer"] + urls)
            #expect(run.stdout.contains("[SETTINGS_MAX_CONCURRENT_STREAMS(0x03):2]"), "\(run.stdout)")
            let answered = run.stdout.components(separatedBy: ":status: 200").count - 1
            let refused = run.stdout.components(separatedBy: "error_code=REFUSED_STREAM").count - 1
            #expect(answered >= 2 && answered + refused >= 4, "\(answered) answered, \(refused) refused: \(run.stdout)")
        }
    }

    /// Over HTTP/1.1 the HTTP/2 faults take their nearest form: a reset, or the plain answer.
    @Test func overHTTP1TheyTakeTheNearestForm() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let ca = tls.directory.authorityCertificate
            for (fault, exit) in [("rst-stream", Int32(56)), ("goaway-abrupt", 56), ("goaway", 0)] {
                let result = try await Curl.run(["-sS", "--http1.1", "-o", "/dev/null", "--cacert", ca, server.tlsURL("/api/v1/users/1?__fault=\(fault)").absoluteString])
                #expect(result.exitCode == exit, "\(fault): \(result.stderr)")
            }
        }
    }
}
