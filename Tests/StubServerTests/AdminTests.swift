import Foundation
import StubCore
import StubServer
import Testing
import StubTestSupport

@Suite(.timeLimit(.minutes(3))) struct AdminTests {
    @Test func healthReportsRoutesAndVersion() async throws {
        try await withServer { server in
            let health = try await AdminClient(server: server).object("GET", "/health")
            #expect(health["status"] as? String == "ok")
            #expect(health["routes"] as? Int == 19)
            #expect(health["version"] as? String == StubdVersion.current)
            #expect((health["stubsLoadedAt"] as? String)?.hasPrefix("20") == true)
        }
    }

    @Test func overridesAreStickyUntilClearedAndShownInRoutes() async throws {
        try await withServer { server in
            let admin = AdminClient(server: server)
            let put = try await admin.call("PUT", "/routes/app/users", json: #"{"variant": "500", "delay": {"ms": 150}}"#)
            #expect(put.status == 200)
            for _ in 0..<2 {
                let start = monotonicMs()
                let got = try await HTTPClient.fetch(server.url("/api/v1/users"))
                #expect(got.status == 500)
                #expect(monotonicMs() - start >= 150)
            }
            let routes = try await admin.object("GET", "/routes")
            let users = (routes["routes"] as? [[String: Any]])?.first { $0["id"] as? String == "app/users" }
            #expect((users?["override"] as? [String: Any])?["variant"] as? String == "500")
            #expect(try await admin.call("DELETE", "/routes/app/users").status == 200)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users")).status == 200)
            let faulted = try await admin.call("PUT", "/routes/app/users", json: #"{"fault": "reset"}"#)
            #expect(faulted.status == 200)
            #expect(await HTTPClient.errorCode(server.url("/api/v1/users")) == .networkConnectionLost)
            #expect(try await admin.call("DELETE", "/routes").status == 200)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users")).status == 200)
        }
    }

    @Test func selectionOrderOverTheWire() async throws {
        try await withServer { server in
            let login = "/api/v1/login?email=jane%40example.com&password=correct-horse"
            #expect(try await HTTPClient.fetch(server.url(login)).status == 200, "when holds")
            #expect(try await AdminClient(server: server).call("PUT", "/routes/app/login", json: #"{"variant": "429-rate-limited"}"#).status == 200)
            #expect(try await HTTPClient.fetch(server.url(login)).status == 429, "an admin override beats when")
            #expect(try await AdminClient(server: server).call("PUT", "/routes/app/login", json: #"{"variant": "429-rate-limited", "sequence": ["401"]}"#).status == 200)
            #expect(try await HTTPClient.fetch(server.url(login)).status == 401, "a sequence step beats the sticky override")
            #expect(try await HTTPClient.fetch(server.url(login)).status == 429, "then the sticky override again")
            let header = try await HTTPClient.fetch(server.url(login + "&__variant=401"), headers: ["X-Stub-Variant": "200"])
            #expect(header.status == 200, "the request's own choice beats everything; the header beats the query")
        }
    }

    @Test func badOverridesAreRejectedWithReasons() async throws {
        try await withServer { server in
            let admin = AdminClient(server: server)
            let unknownRoute = try await admin.object("PUT", "/routes/app/nope", json: #"{"variant": "200"}"#)
            #expect(unknownRoute["error"] as? String == "unknown route")
            #expect((unknownRoute["routes"] as? [String])?.contains("app/users") == true)
            let unknownVariant = try await admin.call("PUT", "/routes/app/users", json: #"{"sequence": ["500", "418"]}"#)
            #expect(unknownVariant.status == 400)
            #expect(unknownVariant.text.contains("\"418\"") && unknownVariant.text.contains("\"200-empty\""))
            let typo = try await admin.call("PUT", "/routes/app/users", json: #"{"varient": "500"}"#)
            #expect(typo.status == 400)
            #expect(typo.text.contains("did you mean"))
            let broken = try await admin.call("PUT", "/routes/app/users", json: #"{"variant": "#)
            #expect(broken.status == 400)
            #expect(try await admin.call("POST", "/routes/app/users").status == 405)
            #expect(try await admin.call("GET", "/nothing").status == 404)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users")).status == 200)
        }
    }

    @Test func overrideBodiesAndSequencesAreBounded() async throws {
        try await withServer { server in
            let admin = AdminClient(server: server)
            let long = "[" + Array(repeating: #""200""#, count: 1001).joined(separator: ",") + "]"
            let sequence = try await admin.call("PUT", "/routes/app/users", json: #"{"sequence": \#(long)}"#)
            #expect(sequence.status == 413 && sequence.text.contains("1000 steps"), "\(sequence.status) \(sequence.text.prefix(200))")
            let padded = #"{"variant": "200", "pad": ""# + String(repeating: "x", count: 70_000) + #""}"#
            let big = try await admin.call("PUT", "/routes/app/users", json: padded)
            #expect(big.status == 413 && big.text.contains("65536 bytes"), "\(big.status)")
            // Nothing was kept from either.
            let routes = try await admin.call("GET", "/routes")
            #expect(routes.body.count < 64 * 1024 && !routes.text.contains("\"sequence\""))
        }
    }

    @Test func sequencesDriveARetryingClient() async throws {
        try await withServer { server in
            let admin = AdminClient(server: server)
            #expect(try await admin.call("PUT", "/routes/app/users", json: #"{"sequence": ["500", "500", "200-empty"]}"#).status == 200)
            // A client that retries 5xx up to three times, as an app's API layer would.
            var attempts = 0
            var final: Fetched?
            while attempts < 4 {
                attempts += 1
                let got = try await HTTPClient.fetch(server.url("/api/v1/users"))
                final = got
                if got.status < 500 { break }
            }
            #expect(attempts == 3)
            #expect(final?.status == 200)
            #expect(final?.text.contains("[]") == true)
            // The sequence is used up: normal selection (the default variant) resumes.
            let after = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(after.text.contains("Jane"))
            let count = try await admin.object("GET", "/requests/count?route=app/users")
            #expect(count["count"] as? Int == 4)
        }
    }

    @Test func sessionsIsolateConcurrentClients() async throws {
        try await withServer { server in
            let a = AdminClient(server: server, session: "A")
            let b = AdminClient(server: server, session: "B")
            #expect(try await a.call("PUT", "/routes/app/user", json: #"{"variant": "404"}"#).status == 200)
            async let fromA = withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await HTTPClient.fetch(server.url("/api/v1/users/1"), headers: ["X-Stub-Session": "A"]).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            async let fromB = withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await HTTPClient.fetch(server.url("/api/v1/users/1"), headers: ["X-Stub-Session": "B"]).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            let (statusesA, statusesB) = try await (fromA, fromB)
            #expect(statusesA.allSatisfy { $0 == 404 } && statusesA.count == 20)
            #expect(statusesB.allSatisfy { $0 == 200 } && statusesB.count == 20)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users/1")).status == 200, "the global scope sees no session override")
            #expect(try await a.object("GET", "/requests/count")["count"] as? Int == 20)
            #expect(try await b.object("GET", "/requests/count")["count"] as? Int == 20)
            #expect(try await AdminClient(server: server).object("GET", "/requests/count")["count"] as? Int == 1)
            #expect(try await a.call("POST", "/reset").status == 200)
            #expect(try await a.object("GET", "/requests/count")["count"] as? Int == 0)
            #expect(try await b.object("GET", "/requests/count")["count"] as? Int == 20)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users/1"), headers: ["X-Stub-Session": "A"]).status == 200)
        }
    }

    @Test func journalRecordsWhatTheClientSentAndFilters() async throws {
        try await withServer { server in
            let admin = AdminClient(server: server)
            _ = try await HTTPClient.fetch(server.url("/api/v1/users?page=2&__delay=1"), headers: ["X-Trace": "t-1"])
            _ = try await HTTPClient.fetch(server.url("/api/chat.postMessage"), method: "POST",
                                           headers: ["Content-Type": "application/json"], body: Data(#"{"channel": "C1", "text": "hi"}"#.utf8))
            _ = try await HTTPClient.fetch(server.url("/nope"))
            let all = try #require(try await admin.object("GET", "/requests")["requests"] as? [[String: Any]])
            #expect(all.count == 3)
            let first = all[0]
            #expect(first["path"] as? String == "/api/v1/users")
            #expect(first["query"] as? [String: String] == ["page": "2"], "control parameters are not the client's own")
            #expect((first["headers"] as? [String: String])?["X-Trace"] == "t-1")
            #expect(first["delayMs"] as? Int == 1)
            #expect(all[1]["body"] as? String == #"{"channel": "C1", "text": "hi"}"#)
            #expect(all[1]["route"] as? String == "slack/chat.postMessage")
            #expect(all[2]["status"] as? Int == 404)
            #expect(all[2]["route"] is NSNull)
            let posts = try #require(try await admin.object("GET", "/requests?method=post")["requests"] as? [[String: Any]])
            #expect(posts.count == 1)
            let firstID = try #require(first["id"] as? Int)
            #expect(try await admin.object("GET", "/requests/count?since=\(firstID)")["count"] as? Int == 2)
            #expect(try await admin.object("GET", "/requests/count?path=/nope")["count"] as? Int == 1)
            #expect(try await admin.object("GET", "/requests?limit=1")["count"] as? Int == 1)
            #expect(try await admin.call("GET", "/requests?since=yesterday").status == 400)
            #expect(try await admin.call("DELETE", "/requests").status == 200)
            #expect(try await admin.object("GET", "/requests/count")["count"] as? Int == 0)
        }
    }

    @Test func journalStaysWithinItsSize() async throws {
        try await withServer(configure: { $0.journalSize = 25 }) { server in
            let session = HTTPClient.shared
            for i in 0..<100 { _ = try await HTTPClient.fetch(server.url("/api/v1/users?i=\(i)"), session: session) }
            let entries = try #require(try await AdminClient(server: server).object("GET", "/requests")["requests"] as? [[String: Any]])
            #expect(entries.count == 25)
            #expect((entries.first?["query"] as? [String: String])?["i"] == "75")
            #expect((entries.last?["query"] as? [String: String])?["i"] == "99")
        }
        try await withServer(configure: { $0.journalSize = 0 }) { server in
            _ = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(try await AdminClient(server: server).object("GET", "/requests/count")["count"] as? Int == 0)
        }
    }

    @Test func journalStaysBoundedUnder10000RealRequests() async throws {
        try await withServer { server in
            // One curl process, one keep-alive connection, ten times the journal's 1,000 entries.
            let glob = server.baseURL.absoluteString + "/api/v1/users?i=[1-10000]"
            let result = try await Subprocess.run("/bin/sh", ["-c", "curl -s '\(glob)' > /dev/null"])
            #expect(result.exitCode == 0)
            let admin = AdminClient(server: server)
            #expect(try await admin.object("GET", "/requests/count")["count"] as? Int == 1000)
            let newest = try #require(try await admin.object("GET", "/requests?limit=1")["requests"] as? [[String: Any]])
            #expect(newest.first?["id"] as? Int == 10_000)
            #expect((newest.first?["query"] as? [String: String])?["i"] == "10000")
            let oldest = try #require(try await admin.object("GET", "/requests")["requests"] as? [[String: Any]])
            #expect(oldest.first?["id"] as? Int == 9_001)
        }
    }

    @Test func tokenProtectsEverythingButHealth() async throws {
        try await withServer(configure: { $0.adminToken = "s3cret" }) { server in
            #expect(try await AdminClient(server: server).call("GET", "/health").status == 200)
            let denied = try await AdminClient(server: server).call("GET", "/routes")
            #expect(denied.status == 401)
            #expect(denied.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            #expect(try await AdminClient(server: server, token: "wrong").call("POST", "/reset").status == 401)
            #expect(try await AdminClient(server: server, token: "s3cret").call("GET", "/routes").status == 200)
        }
    }

    @Test func noAdminTurnsThePrefixOff() async throws {
        try await withServer(configure: { $0.adminEnabled = false }) { server in
            let got = try await AdminClient(server: server).call("GET", "/health")
            #expect(got.status == 404)
            #expect(got.text.contains("no stub matches"))
        }
    }

    @Test func waitForRequestsReturnsOnceTheClientHasCalled() async throws {
        try await withServer { server in
            let client = Task {
                try await Task.sleep(nanoseconds: 200_000_000)
                _ = try await HTTPClient.fetch(server.url("/api/chat.postMessage"), method: "POST",
                                               headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Data("channel=C1&text=hi".utf8))
            }
            let requests = await server.waitForRequests(route: "slack/chat.postMessage", timeout: 10)
            #expect(requests.count == 1)
            #expect(requests.first?.request.bodyFields["text"] == "hi")
            try await client.value
            let none = await server.waitForRequests(route: "app/users", timeout: 0.1)
            #expect(none.isEmpty)
        }
    }

    @Test func swiftAPIUsesTheSameControls() async throws {
        try await withServer { server in
            try server.override(route: "app/login", variant: "429-rate-limited")
            let limited = try await HTTPClient.fetch(server.url("/api/v1/login?email=a&password=b"))
            #expect(limited.status == 429)
            #expect(limited.header("Retry-After") == "30")
            #expect(server.journal(route: "app/login").map(\.status) == [429])
            let viaAdmin = try await AdminClient(server: server).object("GET", "/routes/app/login")
            #expect((viaAdmin["override"] as? [String: Any])?["variant"] as? String == "429-rate-limited")
            try server.sequence(route: "app/users", ["500"])
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users")).status == 500)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users")).status == 200)
            #expect(throws: ControlError.self) { try server.override(route: "app/login", variant: "999") }
            #expect(throws: ControlError.invalidDelay(Int.max)) { try server.override(route: "app/login", delayMs: Int.max) }
            server.reset()
            #expect(server.journal().isEmpty)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/login?email=a&password=b")).status == 401)
        }
    }

    @Test func theJournalsFirstAddressStillAnswers() async throws {
        try await withServer { server in
            _ = try await HTTPClient.fetch(server.url("/api/v1/users/1"))
            let old = try await HTTPClient.fetch(server.url("/__stubd/requests/count"))
            let new = try await HTTPClient.fetch(server.url("/__stubd/journal/count"))
            let count = try new.json() as? [String: Any]
            #expect(new.status == 200 && count?["count"] as? Int == 1, "\(new.text)")
            #expect(old.status == 200 && old.body == new.body)
            #expect(try await HTTPClient.fetch(server.url("/__stubd/requests"), method: "DELETE").status == 200)
            #expect(server.journal().isEmpty)
        }
    }
}
