import Foundation
import StubServer
import StubdClient
import StubTestSupport
import Testing

/// HTTP/2 on the HTTPS port, with clients nobody here wrote: curl, nghttp and h2load, Python's
/// httpx. A client offering `h2` by ALPN gets it; one offering only `http/1.1` gets libmicrohttpd
/// as before. Both get the same statuses and bodies.
@Suite(.timeLimit(.minutes(3))) struct HTTP2ServingTests {
    /// `curl` over one protocol: the status, the version it spoke and the body.
    static func fetch(_ url: String, http2: Bool, ca: String, method: String = "GET") async throws -> (status: String, version: String, body: String) {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("h2-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        var arguments = ["-sS", http2 ? "--http2" : "--http1.1", "--cacert", ca, "-o", out, "-w", "%{http_code} %{http_version}", "-X", method]
        if method != "GET" { arguments += ["-H", "Content-Type: application/json", "--data", "{}"] }
        let result = try await Curl.run(arguments + [url])
        let parts = result.stdout.split(separator: " ").map(String.init)
        let body = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return (parts.first ?? "", parts.count > 1 ? parts[1] : "", body)
    }

    /// Every shipped HTTP route, its path parameters as `1`: the same status and bytes over HTTP/2
    /// and HTTP/1.1 (same seed, so templated values agree too). Each protocol has a session of its
    /// own, so the collections that remember start alike for both.
    @Test func everyShippedRouteAnswersTheSameOverBothProtocols() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let ca = tls.directory.authorityCertificate
            let routes = server.catalog.routes.filter { $0.webSocket == nil }
            #expect(routes.count > 10)
            for route in routes {
                let path = route.fullPath.replacingOccurrences(of: #"\{[^}]+\}"#, with: "1", options: .regularExpression)
                let h2 = try await Self.fetch(server.tlsURL("/__session/h2" + path).absoluteString, http2: true, ca: ca, method: route.method)
                let h1 = try await Self.fetch(server.tlsURL("/__session/h1" + path).absoluteString, http2: false, ca: ca, method: route.method)
                #expect(h2.version == "2" && h1.version == "1.1", "\(route.id): \(h2.version) \(h1.version)")
                #expect(h2.status == h1.status && h2.status != "000", "\(route.id): \(h2.status) vs \(h1.status)")
                #expect(Self.withoutVolatile(h2.body) == Self.withoutVolatile(h1.body), "\(route.id) \(route.method) \(path)")
            }
        }
    }

    /// Values that differ between two requests whatever the protocol: times, ids, counters.
    static func withoutVolatile(_ body: String) -> String {
        body.replacingOccurrences(of: #""(created|created_at|createdAt|ts|id|timestamp|date|updated_at|event_ts)": ?("[^"]*"|[0-9.]+)"#,
                                  with: "", options: .regularExpression)
    }

    /// 100 streams on one connection, each waiting 10 to 1000 ms, end together after about the
    /// longest wait: a wait holds no thread and no other stream.
    @Test(.requires(.nghttp)) func concurrentStreamsWaitTogether() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let uris = (1...100).map { server.tlsURL("/api/v1/users/1?__delay=\($0 * 10)").absoluteString }.joined(separator: "\n")
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("h2-uris-\(UUID().uuidString)")
            try uris.write(to: file, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(at: file) }
            let start = monotonicMs()
            let run = try await Subprocess.run(RequiredTool.nghttp.executable!.replacingOccurrences(of: "nghttp", with: "h2load"),
                                               ["-n100", "-c1", "-m100", "-i", file.path])
            let elapsed = monotonicMs() - start
            #expect(run.stdout.contains("100 succeeded"), "\(run.stdout)")
            #expect(run.stdout.contains("status codes: 100 2xx"))
            // Their sum is 50.5 s; one after another would take that long.
            #expect(elapsed >= 1000 && elapsed < 5000, "\(elapsed) ms")
        }
    }

    /// The journal and the access log name the protocol each request came in.
    @Test func journalRecordsHTTP2() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let ca = tls.directory.authorityCertificate
            _ = try await Self.fetch(server.tlsURL("/api/v1/users/1?h=2").absoluteString, http2: true, ca: ca)
            _ = try await Self.fetch(server.tlsURL("/api/v1/users/1?h=1").absoluteString, http2: false, ca: ca)
            let client = StubdClient(baseURL: server.baseURL)
            let records = try await client.journal(route: "app/user")
            #expect(records.map(\.httpVersion) == ["HTTP/2", "HTTP/1.1"] || records.map(\.httpVersion) == ["HTTP/1.1", "HTTP/2"])
            #expect(records.first { $0.httpVersion == "HTTP/2" }?.query["h"] == ["2"])
            #expect(records.allSatisfy { $0.scheme == "https" })
        }
    }
}

/// The dashboard in headless Chromium over HTTPS: the page, its scripts and its admin API calls
/// all come over HTTP/2.
@Suite(.timeLimit(.minutes(3)), .requires(.selenium, .chromedriver)) struct HTTP2BrowserTests {
    @Test func chromiumLoadsTheDashboardOverHTTP2() async throws {
        let tls = try TLSFixture()
        try await withServer(configure: { try! tls.configure(&$0) }) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/dashboard_h2.py").path
            var base = server.tlsBaseURL!.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, base])
            let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout) \(run.stderr)")
            #expect(out["routesShown"] as? Bool == true, "\(out)")
            #expect(out["page"] as? String == "h2", "\(out)")
            let resources = try #require(out["resources"] as? [[String]])
            #expect(resources.contains { $0.first?.hasPrefix("/__stubd/routes") == true }, "\(resources)")
            #expect(!resources.isEmpty && resources.allSatisfy { $0.last == "h2" }, "\(resources)")
            #expect((out["browserErrors"] as? [String])?.isEmpty == true, "\(out)")
        }
    }
}
