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

    /// `--http2-max-streams`: announced in SETTINGS; a client that opens more streams once it has
    /// acknowledged them breaks the protocol and its connection ends with GOAWAY(PROTOCOL_ERROR),
    /// nothing served past the limit (nghttp2's choice, RFC 9113 §5.1.2). Python's h2 waits for the
    /// acknowledgement first; nghttp, which does not, gets REFUSED_STREAM for the extra streams.
    @Test(.requires(.httpx)) func maxStreamsIsAnnouncedAndKept() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0); $0.tls?.http2MaxStreams = 2 }) { server in
            let script = """
                import socket, ssl, sys
                import h2.connection, h2.events, h2.config, h2.settings
                ctx = ssl.create_default_context(cafile=sys.argv[1]); ctx.set_alpn_protocols(["h2"])
                s = ctx.wrap_socket(socket.create_connection(("127.0.0.1", int(sys.argv[2]))), server_hostname="localhost")
                c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
                c.initiate_connection(); s.sendall(c.data_to_send())
                limit, acked, done, ended = None, False, {}, None
                def pump():
                    global limit, acked, ended
                    for e in c.receive_data(s.recv(65536)):
                        if isinstance(e, h2.events.ConnectionTerminated): ended = (int(e.error_code), e.last_stream_id)
                        if isinstance(e, h2.events.RemoteSettingsChanged) and 3 in e.changed_settings: limit = e.changed_settings[3].new_value
                        if isinstance(e, h2.events.SettingsAcknowledged): acked = True
                        if isinstance(e, h2.events.ResponseReceived): done[e.stream_id] = dict(e.headers)[b":status"].decode()
                        if isinstance(e, h2.events.StreamReset): done[e.stream_id] = "reset %d" % e.error_code
                    s.sendall(c.data_to_send())
                while limit is None or not acked: pump()
                # Past the limit on purpose: h2 itself keeps to it, so its count is lifted.
                h2.settings.Settings.max_concurrent_streams = property(lambda self: 100)
                for i in range(4):
                    sid = c.get_next_available_stream_id()
                    c.send_headers(sid, [(":method", "GET"), (":path", "/api/v1/users/1?__delay=200"), (":scheme", "https"), (":authority", "x")], end_stream=True)
                s.sendall(c.data_to_send())
                while len(done) < 4 and ended is None: pump()
                print(limit, ended, sorted(done.values()))
                """
            let run = try await Subprocess.run("/usr/bin/env", ["python3", "-c", script, tls.directory.authorityCertificate, "\(server.tlsPort!)"])
            #expect(run.stdout == "2 (1, 3) []\n", "\(run.stdout) \(run.stderr)")
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
