import Foundation
import StubServer
import Testing
import StubTestSupport

@Suite(.timeLimit(.minutes(3))) struct ServingTests {
    @Test func servesTheFixtureBytesWithJSONContentType() async throws {
        try await withServer { server in
            #expect(server.port > 0)
            let got = try await HTTPClient.fetch(server.url("/api/v1/users/1"))
            #expect(got.status == 200)
            #expect(got.header("Content-Type") == "application/json; charset=utf-8")
            let file = try Data(contentsOf: Repository.shippedStubs.appendingPathComponent("app/user/200.json"))
            #expect(got.body == file)
            #expect(got.header("Content-Length") == String(file.count))
        }
    }

    @Test func whenConditionsPickBodiesByPathQueryAndFormBody() async throws {
        try await withServer { server in
            let two = try await HTTPClient.fetch(server.url("/api/v1/users/2"))
            #expect(two.body == (try Data(contentsOf: Repository.shippedStubs.appendingPathComponent("app/user/200-user-2.json"))))
            let ok = try await HTTPClient.fetch(server.url("/api/v1/login?email=jane%40example.com&password=correct-horse"))
            #expect(ok.status == 200)
            let denied = try await HTTPClient.fetch(server.url("/api/v1/login?email=jane%40example.com&password=nope"))
            #expect(denied.status == 401)
            let post = try await HTTPClient.fetch(server.url("/api/chat.postMessage"), method: "POST",
                                                  headers: ["Content-Type": "application/x-www-form-urlencoded"],
                                                  body: Data("channel=C0000000000&text=hello+there".utf8))
            #expect(post.status == 200)
            #expect(post.text.contains("\"channel_not_found\""))
        }
    }

    @Test func errorVariantsAreRenderedThroughTheEnvelope() async throws {
        try await withServer { server in
            let missing = try await HTTPClient.fetch(server.url("/api/v1/users/999"))
            #expect(missing.status == 404)
            let body = try #require(try missing.json() as? [String: Any])
            #expect(body["data"] is NSNull)
            #expect((body["error"] as? [String: String])?["title"] == "Not found")
            #expect((body["error"] as? [String: String])?["message"] == "No user with id 999.", "the templated envelope names the id")
            let slack = try await HTTPClient.fetch(server.url("/api/emoji.list"), headers: ["X-Stub-Variant": "200-invalid-auth"])
            let slackBody = try #require(try slack.json() as? [String: Any])
            #expect(slack.status == 200)
            #expect(slackBody["ok"] as? Bool == false)
            #expect(slackBody["error"] as? String == "invalid_auth")
        }
    }

    @Test func unmatchedRequestsGet404WithNearMisses() async throws {
        try await withServer { server in
            let got = try await HTTPClient.fetch(server.url("/api/v1/user/1"))
            #expect(got.status == 404)
            let body = try #require(try got.json() as? [String: Any])
            #expect(body["method"] as? String == "GET")
            #expect(body["path"] as? String == "/api/v1/user/1")
            let misses = try #require(body["nearMisses"] as? [[String: String]])
            #expect(misses.first?["path"] == "/api/v1/users/{id}")
        }
    }

    @Test func otherMethodsGet405WithAllowAndHeadGetsHeadersOnly() async throws {
        try await withServer { server in
            let delete = try await HTTPClient.fetch(server.url("/api/v1/users/1"), method: "DELETE")
            #expect(delete.status == 405)
            #expect(delete.header("Allow") == "GET, HEAD")
            let head = try await HTTPClient.fetch(server.url("/api/v1/users"), method: "HEAD")
            let file = try Data(contentsOf: Repository.shippedStubs.appendingPathComponent("app/users/200.json"))
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(file.count))
        }
    }

    @Test func unknownVariantIs400NeverTheDefault() async throws {
        try await withServer { server in
            for url in [server.url("/api/v1/users?__variant=999")] {
                let got = try await HTTPClient.fetch(url)
                #expect(got.status == 400)
                #expect(got.text.contains("\"200-empty\""))
            }
            let header = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Variant": "nope"])
            #expect(header.status == 400)
            let chosen = try await HTTPClient.fetch(server.url("/api/v1/users"), headers: ["X-Stub-Variant": "200-empty"])
            #expect(chosen.status == 200)
            #expect(try chosen.json() as? [String: Any] != nil)
            #expect(chosen.text.contains("[]"))
        }
    }

    @Test func curlReusesTheKeepAliveConnection() async throws {
        try await withServer { server in
            let result = try await Curl.run(["-sv", "-o", "/dev/null", "-o", "/dev/null",
                                       server.url("/api/v1/users").absoluteString, server.url("/api/v2/items").absoluteString])
            #expect(result.exitCode == 0)
            #expect(result.stderr.contains("Re-using existing connection"), "\(result.stderr)")
            #expect(!result.stderr.contains("Connection: close"))
        }
    }

    @Test func manyConcurrentClientsAllGetTheirAnswer() async throws {
        try await withServer { server in
            let session = HTTPClient.shared
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for i in 0..<400 {
                    group.addTask {
                        let id = i % 3 + 1
                        let got = try await HTTPClient.fetch(server.url("/api/v1/users/\(id)"), session: session)
                        return got.text.contains("\"id\": \(id)") ? got.status : -got.status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.count == 400)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }

    @Test func badHTTPAndHugeHeadersNeverCrashTheServer() async throws {
        try await withServer { server in
            let huge = String(repeating: "x", count: 40_000)
            let big = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Big: \(huge)", server.url("/api/v1/users").absoluteString])
            #expect(big.stdout == "431")
            let garbage = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "-X", "GET / HTTP/1.1\r\n\u{1}\u{2}", server.url("/x").absoluteString])
            #expect(garbage.stdout == "400" || garbage.exitCode != 0)
            let after = try await HTTPClient.fetch(server.url("/api/v1/users"))
            #expect(after.status == 200)
        }
    }

    @Test func stopReleasesThePortAndASecondServerCannotTakeABusyOne() throws {
        let first = try StubServer(stubsAt: Repository.shippedStubs, port: 0)
        let port = first.port
        #expect(throws: StubServerError.self) { _ = try StubServer(stubsAt: Repository.shippedStubs, port: port) }
        first.stop()
        let second = try StubServer(stubsAt: Repository.shippedStubs, port: port)
        #expect(second.port == port)
        second.stop()
    }
}
