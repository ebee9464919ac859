import Foundation
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The dashboard's files and the admin calls it makes, over a real socket: the page and its
/// security headers, the live journal stream read with curl, sessions, and `--no-ui`.
@Suite(.timeLimit(.minutes(3))) struct DashboardTests {
    static let files = Repository.root.appendingPathComponent("Sources/StubDashboard/Files")

    @Test func thePageAndItsFilesAreServedWithAPolicyThatAllowsOnlyThemselves() async throws {
        try await withServer(configure: { $0.adminToken = "s3cret" }) { server in
            let page = try await HTTPClient.fetch(try #require(server.dashboardURL))
            #expect(page.status == 200 && page.header("Content-Type") == "text/html; charset=utf-8")
            let policy = try #require(page.header("Content-Security-Policy"))
            #expect(policy.contains("default-src 'none'") && policy.contains("script-src 'self'") && !policy.contains("unsafe-inline"))
            #expect(page.header("X-Content-Type-Options") == "nosniff")
            #expect(page.text.contains("/__stubd/ui/app.js") && page.text.contains("/__stubd/ui/core.js"))
            let names = try FileManager.default.contentsOfDirectory(atPath: DashboardTests.files.path).sorted()
            #expect(names.count == 10, "every file in Files/ is served: \(names)")
            for name in names {
                let type = ["js": "text/javascript", "css": "text/css", "svg": "image/svg+xml", "html": "text/html"][name.split(separator: ".").last.map(String.init) ?? ""] ?? "?"
                let file = try await HTTPClient.fetch(server.url("/__stubd/ui/" + name))
                #expect(file.status == 200 && file.header("Content-Type")?.hasPrefix(type) == true, "\(name)")
                let onDisk = try Data(contentsOf: DashboardTests.files.appendingPathComponent(name))
                #expect(file.body == onDisk, "\(name) is served as it is in the repository")
            }
            let missing = try await HTTPClient.fetch(server.url("/__stubd/ui/nope.js"))
            #expect(missing.status == 404 && missing.text.contains("no such dashboard file"))
            // The page needs no token; every call it makes does.
            #expect(try await HTTPClient.fetch(server.url("/__stubd/routes")).status == 401)
            #expect(try await HTTPClient.fetch(server.url("/__stubd/journal/stream")).status == 401)
        }
    }

    @Test func withoutTheDashboardThePageIsGoneAndTheAPIStays() async throws {
        try await withServer(configure: { $0.dashboard = false }) { server in
            let page = try await HTTPClient.fetch(server.url("/__stubd/ui"))
            #expect(page.status == 404 && page.text.contains("the dashboard is off"))
            #expect(server.dashboardURL == nil)
            #expect(try await HTTPClient.fetch(server.url("/__stubd/routes")).status == 200)
        }
    }

    /// Nothing the page loads comes from elsewhere: no URL in its files but the SVG namespace.
    @Test func theFilesNameNoOtherServer() throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: DashboardTests.files.path) {
            let text = try String(contentsOf: DashboardTests.files.appendingPathComponent(name), encoding: .utf8)
            let urls = text.components(separatedBy: "://").dropFirst().map { $0.prefix(30) }
            #expect(urls.allSatisfy { $0.hasPrefix("www.w3.org/2000/svg") || $0.hasPrefix("${host}") }, "\(name): \(urls)")
            #expect(!text.contains("innerHTML") && !text.contains("insertAdjacentHTML") && !text.contains("eval("), "\(name) builds no markup from text")
        }
    }

    @Test func theStreamCarriesRequestsOfEverySessionAndChangesAsTheyHappen() async throws {
        try await withServer { server in
            let url = server.url("/__stubd/journal/stream").absoluteString + "?scope=all"
            async let streamed = Curl.run(["-sN", "--max-time", "2", url])
            try await waitUntil("the stream's reader to open") { server.control.feed.hasReaders }
            _ = try await HTTPClient.fetch(server.url("/api/v1/users/2"))
            _ = try await HTTPClient.fetch(server.url("/api/v1/user/1"), headers: ["X-Stub-Session": "device-7"])
            _ = try await AdminClient(server: server).call("PUT", "/routes/app/users", json: #"{"variant": "500"}"#)
            let out = try await streamed.stdout
            let events = out.components(separatedBy: "\n\n").filter { $0.contains("event: request") }
            #expect(events.count == 2, "\(out)")
            #expect(events.first?.contains("\"path\":\"/api/v1/users/2\"") == true && events.first?.contains("\"selection\":{\"by\":\"when\"}") == true)
            #expect(events.last?.contains("\"session\":\"device-7\"") == true && events.last?.contains("\"why\":\"segment 3") == true)
            #expect(out.contains("event: change\ndata: {}"), "the override was announced")
            #expect(out.contains("event: hello\ndata: {\"lastID\":0}"), "the stream names the journal's last id first")
            #expect(!out.contains("/__stubd/"), "admin calls are not in the stream")

            // A reader of one session, resuming after an id, gets that session's entries only.
            let scoped = try await Curl.run(["-sN", "--max-time", "1", "-H", "X-Stub-Session: device-7", "-H", "Last-Event-ID: 0",
                                             server.url("/__stubd/journal/stream").absoluteString])
            #expect(scoped.stdout.components(separatedBy: "event: request").count == 2, "\(scoped.stdout)")
            #expect(scoped.stdout.contains("/api/v1/user/1") && !scoped.stdout.contains("/api/v1/users/2"))
        }
    }

    @Test func anOpenStreamDoesNotKeepTheServerFromStopping() async throws {
        let folder = Repository.shippedStubs
        let server = try StubServer(stubsAt: folder, configuration: StubServerConfiguration())
        async let streamed = Curl.run(["-sN", "--max-time", "20", server.url("/__stubd/journal/stream").absoluteString])
        try await waitUntil("the stream's reader to open") { server.control.feed.hasReaders }
        let started = monotonicMs()
        server.stop()
        let stopMs = monotonicMs() - started
        let result = try await streamed
        #expect(stopMs < 3000, "stop took \(stopMs) ms")
        // The stream ends with the server: curl sees it cut (18, 52 or 56), never its own 20 s limit (28).
        #expect(result.exitCode != 28 && result.stdout.contains("event: hello"), "curl: \(result.exitCode)")
    }

    @Test func sessionsAreListedWithTheirOverridesAndClearedByName() async throws {
        try await withServer { server in
            let admin = AdminClient(server: server)
            let device = AdminClient(server: server, session: "qa-1")
            _ = try await device.call("PUT", "/routes/app/users", json: #"{"variant": "200-empty"}"#)
            _ = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Session": "qa-1"])
            _ = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Session": "qa-2"])
            let list = try #require(try await admin.object("GET", "/sessions")["sessions"] as? [[String: Any]])
            #expect(list.map { $0["session"] as? String } == ["qa-1", "qa-2"])
            let first = try #require(list.first)
            #expect(first["requests"] as? Int == 1)
            #expect(((first["overrides"] as? [String: Any])?["app/users"] as? [String: Any])?["variant"] as? String == "200-empty")
            let cleared = try await admin.object("DELETE", "/sessions/qa-1")
            #expect(cleared["reset"] as? Bool == true)
            let after = try #require(try await admin.object("GET", "/sessions")["sessions"] as? [[String: Any]])
            #expect(after.map { $0["session"] as? String } == ["qa-2"])
            // A name with slashes and an empty segment is cleared as itself, not as a neighbour.
            _ = try await AdminClient(server: server, session: "team/a//b").call("PUT", "/routes/app/users", json: #"{"variant": "500"}"#)
            _ = try await AdminClient(server: server, session: "team/a/b").call("PUT", "/routes/app/users", json: #"{"variant": "500"}"#)
            let odd = try await admin.object("DELETE", "/sessions/team%2Fa%2F%2Fb")
            #expect(odd["session"] as? String == "team/a//b")
            let left = try #require(try await admin.object("GET", "/sessions")["sessions"] as? [[String: Any]])
            #expect(left.map { $0["session"] as? String } == ["qa-2", "team/a/b"])
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Session": "qa-1"]).text.contains("Jane"),
                    "the session's override is gone")
        }
    }
}

/// The dashboard in a real browser: headless Chromium driven by Selenium, as a tester uses it next
/// to the Simulator. Screenshots go to `STUBD_SCREENSHOTS` (docs/images to refresh the README's).
@Suite(.timeLimit(.minutes(3)), .requires(.selenium, .chromedriver))
struct DashboardBrowserTests {
    func run(_ arguments: [String]) async throws -> [String: Any] {
        let script = Repository.root.appendingPathComponent("Tests/Clients/dashboard_check.py").path
        let run = try await Subprocess.run("/usr/bin/env", ["python3", script] + arguments)
        #expect(run.exitCode == 0, "\(run.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)\n\(run.stderr)")
    }

    @Test func aTesterSteersTheServerAndWatchesTrafficFromTheBrowser() async throws {
        let folder = try shots()
        try await withServer(configure: { $0.log = .off }) { server in
            let out = try await run([origin(server), "main", folder])
            #expect(out["variant500"] as? Bool == true, "picking variant 500 makes curl get 500")
            #expect(out["clearedBackTo200"] as? Bool == true)
            #expect(out["changeFromElsewhere"] as? Bool == true && (out["changeFromElsewhereSeconds"] as? Double ?? 9) < 1)
            #expect(out["heldOne"] as? Bool == true && out["curlWaitedWhileHeld"] as? Bool == true)
            #expect(out["releasedCurlStatus"] as? String == "200", "the released curl got its answer")
            #expect((out["liveRowSeconds"] as? Double ?? 9) < 1, "a request shows within a second")
            let near = try #require(out["nearMisses"] as? [String: Any])
            #expect(near["shown"] as? Bool == true && (near["reasons"] as? [String])?.first?.hasPrefix("segment 3") == true)
            #expect(out["whyChosen"] as? Bool == true)
            #expect((out["curlCommand"] as? String)?.hasPrefix("curl -X 'GET' 'http://127.0.0.1:") == true)
            #expect((out["oddMethodCurl"] as? String)?.hasPrefix("curl -X 'BREW`ID`' 'http://") == true, "\(out["oddMethodCurl"] ?? "")")
            let xss = try #require(out["xss"] as? [String: Any])
            #expect(xss["title"] as? String == "stubd" && xss["imagesInDetail"] as? Int == 0 && xss["scriptsInPage"] as? Int == 7)
            #expect(xss["payloadShownAsText"] as? Bool == true)
            #expect(out["sessionListed"] as? Bool == true && out["sessionCleared"] as? Bool == true)
            #expect(out["health"] as? Bool == true)
            #expect(out["adminCallsJournaled"] as? Int == 0, "the dashboard's own calls are not journaled")
            #expect((out["browserErrors"] as? [String])?.isEmpty == true, "\(out["browserErrors"] ?? "")")
            #expect(out["phoneWidthFits"] as? Bool == true)
            // At 390 px the routes stack into cards: every control of every row on screen and hit
            // where it is drawn, no path cut inside a segment, and a variant steered from there.
            #expect(out["phoneRoutesWidthFits"] as? Bool == true)
            #expect(out["phoneRoutesSideScroll"] as? Int == 0, "the routes scroll sideways by \(out["phoneRoutesSideScroll"] ?? "")")
            #expect((out["phoneControls"] as? Int ?? 0) >= 11 * 7, "\(out["phoneControls"] ?? "")")
            #expect((out["phoneControlsOff"] as? [String])?.isEmpty == true, "\(out["phoneControlsOff"] ?? "")")
            #expect((out["phonePathsCut"] as? [String])?.isEmpty == true, "\(out["phonePathsCut"] ?? "")")
            #expect(out["phoneVariant500"] as? Bool == true && out["phoneCleared"] as? Bool == true)
            #expect(out["pageOpenedEightTimes"] as? Int == 8 && (out["slowestOpenSeconds"] as? Double ?? 99) < 3,
                    "a left page holds no connection: \(out["slowestOpenSeconds"] ?? "")")
            #expect(out["csp"] as? Bool == true)
        }
        for name in ["routes", "traffic", "sessions", "health", "phone", "phone-routes"] {
            #expect(FileManager.default.fileExists(atPath: "\(folder)/dashboard-\(name).png"), "screenshot \(name)")
        }
    }

    @Test func aFailedReloadShowsItsProblemsWithFileAndLine() async throws {
        let stubs = try TemporaryStubDirectory(["app/users/route.json": #"{"method": "GET", "path": "/users"}"#, "app/users/200.json": "[]"])
        try await withServer(stubs: stubs.url, configure: { $0.log = .off }) { server in
            try Data("{\n  \"method\": \"GET\",\n  \"path\": \"/users\"\n  \"variants\": {}\n}\n".utf8)
                .write(to: stubs.url.appendingPathComponent("app/users/route.json"))
            #expect(try await AdminClient(server: server).call("POST", "/reload").status == 422)
            let out = try await run([origin(server), "health", try shots()])
            #expect(out["badge"] as? String == "degraded")
            let problems = try #require(out["problems"] as? [String])
            #expect(problems.count == 1 && problems.first?.contains("app/users/route.json") == true && problems.first?.contains(":4:") == true,
                    "\(problems)")
            #expect(out["stillServing"] as? Bool == true)
        }
    }

    @Test func withATokenThePageAsksForItAndTheAPIRefusesCallsWithout() async throws {
        try await withServer(configure: { $0.adminToken = "t0ken-for-the-tab"; $0.log = .off }) { server in
            let out = try await run([origin(server), "token", "t0ken-for-the-tab"])
            #expect(out["apiWithoutToken"] as? Int == 401)
            #expect(out["asked"] as? Bool == true && out["wrongTokenRefused"] as? Bool == true)
            #expect(out["routesAfterToken"] as? Int == 19)
            #expect(out["tokenInURL"] as? Bool == false && out["tokenInSessionStorage"] as? Bool == true)
            #expect(out["tokenInRequestURLs"] as? Bool == false, "no call the page made carries the token in its URL")
        }
    }
}

/// The same page in headless Firefox, over WebDriver BiDi (Firefox's own protocol; no geckodriver).
@Suite(.timeLimit(.minutes(3)), .requires(.firefox, .websockets))
struct DashboardFirefoxTests {
    @Test func firefoxShowsTheRoutesSteersAVariantAndKeepsAPayloadAsText() async throws {
        let folder = try shots()
        try await withServer(configure: { $0.log = .off }) { server in
            let script = Repository.root.appendingPathComponent("Tests/Clients/dashboard_firefox.py").path
            let run = try await Subprocess.run("/usr/bin/env", ["python3", script, origin(server), folder])
            #expect(run.exitCode == 0, "\(run.stderr)")
            let out = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any], "\(run.stdout)")
            #expect((out["browser"] as? String)?.hasPrefix("firefox") == true)
            #expect(out["routes"] as? Int == 19)
            #expect(out["variant500"] as? Bool == true)
            #expect((out["liveRowSeconds"] as? Double ?? 9) < 1)
            #expect(out["payloadShownAsText"] as? Bool == true && out["imagesInDetail"] as? Int == 0 && out["title"] as? String == "stubd")
        }
    }
}
