import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// The admin API answers no web page but its own, over real sockets: what curl sends as a browser
/// would (an `Origin`, `Sec-Fetch-Site`, a rebound `Host`) is refused, and what curl, scripts and
/// URLSession send unchanged keeps working.
@Suite(.timeLimit(.minutes(1))) struct AdminGuardHTTPTests {
    /// The status curl got, and the body.
    func call(_ server: StubServer, _ path: String, method: String = "GET", _ headers: [String] = [], body: String? = nil) async throws -> (Int, String) {
        var arguments = ["-s", "-o", "-", "-w", "\n%{http_code}", "-X", method]
        for header in headers { arguments += ["-H", header] }
        if let body { arguments += ["-H", "Content-Type: application/json", "-d", body] }
        let result = try await Curl.run(arguments + [server.url(path).absoluteString])
        let split = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(split.last ?? "") ?? 0, split.dropLast().joined(separator: "\n"))
    }

    @Test func foreignPagesAndReboundNamesAreRefusedAndPlainClientsAreNot() async throws {
        try await withServer { server in
            let put = #"{"variant": "500"}"#
            // A page of another site: refused before anything changes, reads included.
            #expect(try await call(server, "/__stubd/routes/app/users", method: "PUT", ["Origin: http://evil.example"], body: put).0 == 403)
            #expect(try await call(server, "/__stubd/reset", method: "POST", ["Sec-Fetch-Site: cross-site"]).0 == 403)
            #expect(try await call(server, "/__stubd/journal", ["Origin: http://localhost:3000", "Sec-Fetch-Site: same-site"]).0 == 403)
            #expect(try await call(server, "/__stubd/routes/app/users", method: "OPTIONS",
                                   ["Origin: http://evil.example", "Access-Control-Request-Method: PUT"]).0 == 403)
            // A name rebound to 127.0.0.1: the page would be the API's own origin.
            let rebound = try await call(server, "/__stubd/journal", ["Host: evil.example:\(server.port)"])
            #expect(rebound.0 == 421 && rebound.1.contains("--allow-host"), "\(rebound)")
            #expect(try await call(server, "/__stubd/ui", ["Host: evil.example:\(server.port)"]).0 == 421)
            #expect(try await call(server, "/api/v1/users/1", ["Origin: http://evil.example"]).0 == 200, "stubbed routes stay open")
            #expect(try await call(server, "/api/v1/users", ["Host: evil.example"]).0 == 200)
            #expect(try await call(server, "/__stubd/routes/app/users").1.contains(#""override": null"#), "nothing was changed")
            // curl as is, and the dashboard's own same-origin calls, work.
            #expect(try await call(server, "/__stubd/routes/app/users", method: "PUT", body: put).0 == 200)
            #expect(try await call(server, "/__stubd/routes/app/users", method: "DELETE",
                                   ["Origin: http://127.0.0.1:\(server.port)", "Sec-Fetch-Site: same-origin"]).0 == 200)
            #expect(try await call(server, "/__stubd/journal", ["Host: localhost:\(server.port)"]).0 == 200)
            // A health check without Host (HTTP/1.0, as HAProxy's httpchk sends it) is no browser.
            let socket = try RawSocket(port: server.port)
            socket.send(Array("GET /__stubd/health HTTP/1.0\r\n\r\n".utf8))
            #expect(String(decoding: await socket.read(), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aTeamsNameAndATokenedServerAnswerOtherHosts() async throws {
        try await withServer(configure: { $0.allowedHosts = ["stubd.internal"] }) { server in
            let named = try await call(server, "/__stubd/journal", ["Host: stubd.internal:\(server.port)"])
            let other = try await call(server, "/__stubd/journal", ["Host: other.internal:\(server.port)"])
            #expect(named.0 == 200 && other.0 == 421)
        }
        try await withServer(configure: { $0.adminToken = "t0ken" }) { server in
            let anyName = try await call(server, "/__stubd/journal", ["Host: other.internal", "Authorization: Bearer t0ken"])
            let foreign = try await call(server, "/__stubd/journal", ["Origin: http://evil.example", "Authorization: Bearer t0ken"])
            #expect(anyName.0 == 200 && foreign.0 == 403)
        }
    }

    @Test func allowHostIsASettingWithItsOwnErrors() async throws {
        let bad = try await Subprocess.run(Repository.stubdBinary, ["serve", "--allow-host", "evil.example:8080", "--port", "0"])
        #expect(bad.exitCode == 2 && bad.stderr.contains("--allow-host"), "\(bad.stderr)")
    }
}

/// The attack as it was made: headless Chromium on a page of another origin, and on a name rebound
/// to 127.0.0.1, trying to change and read the admin API.
@Suite(.requires(.selenium, .chromedriver),
       .timeLimit(.minutes(2)))
struct AdminGuardBrowserTests {
    static let stubs = [
        "app/_service.json": #"{"basePath": "/api"}"#,
        "app/users/route.json": #"{"method": "GET", "path": "/users"}"#,
        "app/users/200.json": "[]", "app/users/404.json": "{}", "app/users/500.json": "{}",
        "web/attack/route.json": #"{"method": "GET", "path": "/attack"}"#,
        "web/attack/200.html": "<!doctype html><title>another site</title><body></body>",
    ]

    @Test func aPageOfAnotherSiteOrAReboundNameCanNeitherReadNorChangeTheAdminAPI() async throws {
        let stubs = try TemporaryStubDirectory(AdminGuardBrowserTests.stubs)
        try await withServer(stubs: stubs.url) { server in
            _ = try await Curl.run(["-s", "-o", "/dev/null", "-H", "Authorization: Bearer secret-token", server.url("/api/users").absoluteString])
            let set = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "PUT", "-H", "Content-Type: application/json",
                                          "-d", #"{"variant": "404"}"#, server.url("/__stubd/routes/app/users").absoluteString])
            #expect(set.stdout == "200")
            let script = Repository.root.appendingPathComponent("Tests/Clients/cross_origin_check.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, String(server.port)])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\n\(run.stderr)")
            let seen = try #require(out["seen"] as? [String: Any], "\(out)")
            #expect(out["page"] as? String == "http://evil.example:\(server.port)")
            #expect(seen["crossCorsPut"] as? String == "blocked", "the preflight is refused: \(seen)")
            #expect(seen["crossRead"] as? String == "blocked", "\(seen)")
            #expect(seen["reboundReadStatus"] as? Int == 421 && seen["reboundReadLeaks"] as? Bool == false, "\(seen)")
            #expect(seen["reboundPut"] as? Int == 421, "\(seen)")
            // Neither the no-cors POST nor the form reset anything, and no override came in.
            let after = try #require(out["overrideAfter"] as? [String: Any])
            #expect(after["status"] as? Int == 200 && (after["body"] as? String ?? "").contains(#""variant": "404""#), "\(after)")
            #expect(out["stubAfter"] as? Int == 404)
        }
    }
}
