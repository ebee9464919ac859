import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// The proxy's own HTTP/1.1 client against upstreams that answer with hand-written bytes:
/// every framing RFC 9112 allows, reused and stale connections, and answers that are not HTTP.
@Suite(.timeLimit(.minutes(3))) struct ProxyWireTests {
    static let empty = ["me/route.json": #"{"method": "GET", "path": "/stubbed"}"#, "me/200.json": "{}"]

    func proxied(_ upstream: ScriptedUpstream, _ body: (StubServer) async throws -> Void) async throws {
        let stubs = try TemporaryStubDirectory(ProxyWireTests.empty)
        try await withServer(stubs: stubs.url, configure: { $0.proxy(to: upstream.baseURL, timeout: 3) }, body)
    }

    @Test func chunkedInterimAndCloseDelimitedAnswersArriveWhole() async throws {
        let upstream = try ScriptedUpstream { head in
            if head.hasPrefix("GET /chunked") {
                return .init("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nContent-Type: text/plain\r\n\r\n"
                             + "5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nX-Trailer: t\r\n\r\n")
            }
            if head.hasPrefix("GET /interim") {
                return .init("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </a.css>\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok")
            }
            return .init("HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"until\": \"close\"}", close: true)
        }
        defer { upstream.stop() }
        try await proxied(upstream) { server in
            let chunked = try await HTTPClient.fetch(server.url("/chunked"))
            #expect(chunked.status == 200 && chunked.text == "hello, world", "\(chunked.status) \(chunked.text)")
            let cookies = try await Curl.run(["-s", "-D", "-", "-o", "/dev/null", server.url("/chunked").absoluteString]).stdout
            #expect(cookies.contains("Set-Cookie: a=1") && cookies.contains("Set-Cookie: b=2"), "\(cookies)")
            #expect(!cookies.lowercased().contains("transfer-encoding: chunked\r\ntransfer-encoding"))
            let interim = try await HTTPClient.fetch(server.url("/interim"))
            #expect(interim.status == 201 && interim.text == "ok" && interim.header("Link") == nil)
            let closed = try await HTTPClient.fetch(server.url("/until-close"))
            #expect(closed.status == 200 && closed.text == #"{"until": "close"}"#)
        }
    }

    @Test func theRequestArrivesAsSentAndKeptAliveConnectionsAreReused() async throws {
        let upstream = try ScriptedUpstream { _ in .init("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nyes") }
        defer { upstream.stop() }
        try await proxied(upstream) { server in
            for _ in 0..<5 {
                let got = try await HTTPClient.fetch(server.url("/items?q=a%20b&x=%26"), method: "POST", headers: ["X-Stub-Delay": "0", "X-Custom": "kept"],
                                                     body: Data("12345".utf8))
                #expect(got.status == 200 && got.text == "yes", "\(got.status) \(got.text)")
            }
            #expect(upstream.connections == 1, "\(upstream.connections) connections for 5 sequential calls")
            let head = try #require(upstream.heads.first)
            #expect(head.hasPrefix("POST /items?q=a%20b&x=%26 HTTP/1.1\r\n"), "\(head)")
            #expect(head.contains("\r\nHost: 127.0.0.1:\(upstream.port)\r\n") && head.contains("\r\nX-Custom: kept\r\n"))
            #expect(head.contains("\r\nContent-Length: 5\r\n") && head.contains("\r\nAccept-Encoding: identity\r\n"))
            #expect(!head.lowercased().contains("x-stub-delay"))
        }
    }

    @Test func aPooledConnectionTheUpstreamDroppedIsRetriedOnANewOne() async throws {
        // Keep-alive in words, but every connection is closed after one answer.
        let upstream = try ScriptedUpstream { _ in .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", close: true) }
        defer { upstream.stop() }
        try await proxied(upstream) { server in
            for _ in 0..<4 {
                let got = try await HTTPClient.fetch(server.url("/again"))
                #expect(got.status == 200 && got.text == "ok", "\(got.status) \(got.text)")
            }
            #expect(upstream.connections == 4)
        }
    }

    @Test func answersThatAreNotHTTPAre502sNamingWhy() async throws {
        let upstream = try ScriptedUpstream { head in
            if head.hasPrefix("GET /garbage") { return .init("HELLO THERE\r\n\r\n", close: true) }
            if head.hasPrefix("GET /short") { return .init("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this", close: true) }
            if head.hasPrefix("GET /two-lengths") { return .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nabc", close: true) }
            return .init("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", close: true)
        }
        defer { upstream.stop() }
        try await proxied(upstream) { server in
            for (path, words) in [("/garbage", "status line"), ("/short", "middle of the answer"), ("/two-lengths", "Content-Length"),
                                  ("/bad-chunk", "chunk size")] {
                let got = try await HTTPClient.fetch(server.url(path))
                let body = try #require(try got.json() as? [String: Any], "\(path): \(got.text)")
                #expect(got.status == 502 && body["code"] as? Int == URLError.Code.badServerResponse.rawValue, "\(path): \(got.text)")
                #expect((body["detail"] as? String)?.contains(words) == true, "\(path): \(got.text)")
            }
        }
    }

    @Test func aRefusedUpstreamIsA502WithCannotConnect() async throws {
        let upstream = try ScriptedUpstream { _ in .init("") }
        upstream.stop()
        try await proxied(upstream) { server in
            let got = try await HTTPClient.fetch(server.url("/x"))
            let body = try #require(try got.json() as? [String: Any])
            #expect(got.status == 502 && body["code"] as? Int == URLError.Code.cannotConnectToHost.rawValue, "\(got.text)")
        }
    }

    @Test func httpsUpstreamsAreCheckedAgainstTheGivenAuthority() async throws {
        let tls = try TLSFixture(hosts: ["127.0.0.1"])
        var configuration = StubServerConfiguration()
        try tls.configure(&configuration, only: true)
        let upstream = try StubServer(stubsAt: Repository.shippedStubs, configuration: configuration)
        defer { upstream.stop() }
        let stubs = try TemporaryStubDirectory(ProxyWireTests.empty)
        try await withServer(stubs: stubs.url, configure: { $0.proxy(to: upstream.baseURL) }) { server in
            let got = try await HTTPClient.fetch(server.url("/x"))
            let body = try #require(try got.json() as? [String: Any], "\(got.text)")
            #expect(got.status == 502 && body["code"] as? Int == URLError.Code.serverCertificateUntrusted.rawValue, "\(got.text)")
        }
        try await withServer(stubs: stubs.url, configure: {
            $0.proxy(to: upstream.baseURL, authorities: URL(fileURLWithPath: tls.directory.authorityCertificate))
        }) { server in
            for path in ["/api/v1/users/2", "/api/v1/users?page=2"] {
                let proxied = try await HTTPClient.fetch(server.url(path))
                #expect(proxied.status == 200, "\(path): \(proxied.text.prefix(400))")
                let direct = try await Curl.run(["-s", "--cacert", tls.directory.authorityCertificate, upstream.baseURL.absoluteString + path]).stdout
                #expect(proxied.text == direct, "\(path)")
            }
        }
    }

    @Test func requestsPastTheWaitingLimitGetA503NotAThread() async throws {
        let upstream = try ScriptedUpstream { _ in
            usleep(800_000)
            return .init("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        }
        defer { upstream.stop() }
        let stubs = try TemporaryStubDirectory(ProxyWireTests.empty)
        try await withServer(stubs: stubs.url, configure: { $0.proxy(to: upstream.baseURL, timeout: 5); $0.maxWaitingDeferred = 2 }) { server in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<3 { group.addTask { try await HTTPClient.fetch(server.url("/slow")).status } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.sorted() == [200, 200, 503], "\(statuses)")
            let busy = try await HTTPClient.fetch(server.url("/slow"))
            #expect(busy.status == 200, "the limit frees as calls end")
        }
    }
}
