import Foundation
@testable import StubServer
import StubSystem
import StubTesting
import StubTestSupport
import Testing

/// Stubs that remember, through URLSession against the real server and the shipped stubs: the
/// password flow, a collection's CRUD, sessions apart, reset.
@Suite struct MemoryTests {
    static let json = ["Content-Type": "application/json"]

    func login(_ server: StubServer, _ password: String, session: String? = nil) async throws -> Int {
        let headers = session.map { ["X-Stub-Session": $0] } ?? [:]
        return try await HTTPClient.fetch(server.url("/api/v1/login?email=jane@example.com&password=\(password)"), headers: headers).status
    }

    func changePass(_ server: StubServer, from old: String, to new: String, session: String? = nil) async throws -> Fetched {
        var headers = MemoryTests.json
        if let session { headers["X-Stub-Session"] = session }
        return try await HTTPClient.fetch(server.url("/api/v1/changePass"), method: "POST", headers: headers,
                                          body: Data(#"{"oldPassword": "\#(old)", "newPassword": "\#(new)"}"#.utf8))
    }

    @Test func thePasswordFlowRemembersPerSessionAndResets() async throws {
        try await withServer { server in
            #expect(try await login(server, "correct-horse", session: "a") == 200)
            #expect(try await changePass(server, from: "correct-horse", to: "battery-staple", session: "a").status == 200)
            #expect(try await login(server, "correct-horse", session: "a") == 401)
            let refused = try await HTTPClient.fetch(server.url("/api/v1/login?email=jane@example.com&password=correct-horse"),
                                                     headers: ["X-Stub-Session": "a"])
            let envelope = try #require(try refused.json() as? [String: Any])
            #expect((envelope["error"] as? [String: String])?["title"] == "Login failed")
            #expect(try await login(server, "battery-staple", session: "a") == 200)
            // Session b, and requests outside any session, still have the seed's password.
            #expect(try await login(server, "correct-horse", session: "b") == 200)
            #expect(try await login(server, "battery-staple", session: "b") == 401)
            #expect(try await login(server, "correct-horse") == 200)
            // A wrong old password changes nothing.
            #expect(try await changePass(server, from: "nope", to: "x1234567", session: "a").status == 401)
            #expect(try await login(server, "battery-staple", session: "a") == 200)
            let reset = try await HTTPClient.fetch(server.url("/__stubd/reset"), method: "POST", headers: ["X-Stub-Session": "a"])
            #expect(reset.status == 200)
            #expect(try await login(server, "correct-horse", session: "a") == 200)
            let journal = server.journal(session: "a").compactMap { $0.stateChanges.isEmpty ? nil : $0.stateChanges }
            #expect(journal.isEmpty, "the reset emptied the session's journal too")
        }
    }

    @Test func theJournalSaysWhatEachRequestChanged() async throws {
        try await withServer { server in
            _ = try await changePass(server, from: "correct-horse", to: "battery-staple", session: "j")
            _ = try await HTTPClient.fetch(server.url("/api/v1/todos"), method: "POST", headers: MemoryTests.json.merging(["X-Stub-Session": "j"]) { a, _ in a },
                                           body: Data(#"{"title": "t"}"#.utf8))
            let changes = server.journal(session: "j").map(\.stateChanges)
            #expect(changes == [["state password", "state passwordChanges"], ["app/todos 6 created"]])
        }
    }

    @Test func aCollectionAnswersCRUDInTheServiceEnvelope() async throws {
        try await withServer { server in
            let list = try await HTTPClient.fetch(server.url("/api/v1/todos?per_page=2&page=2&sort=title"))
            let page = try #require(try list.json() as? [String: Any])
            let meta = try #require(page["meta"] as? [String: Int])
            #expect(meta == ["total": 5, "page": 2, "perPage": 2, "pages": 3])
            let titles = (page["data"] as? [[String: Any]])?.compactMap { $0["title"] as? String }
            #expect(titles == ["Renew passport", "Send invoice #2041"])
            #expect(list.header("X-Total-Count") == "5")
            var ids: [Int] = []
            for title in ["one", "two", "three"] {
                let created = try await HTTPClient.fetch(server.url("/api/v1/todos"), method: "POST", headers: MemoryTests.json,
                                                         body: Data(#"{"title": "\#(title)", "done": false}"#.utf8))
                #expect(created.status == 201)
                let object = try #require(try created.json() as? [String: Any])
                let id = try #require(object["id"] as? Int)
                #expect(created.header("Location") == "/api/v1/todos/\(id)")
                ids.append(id)
            }
            #expect(ids == [6, 7, 8])
            let patched = try await HTTPClient.fetch(server.url("/api/v1/todos/7"), method: "PATCH", headers: MemoryTests.json,
                                                     body: Data(#"{"done": true, "title": null, "tags": ["x"]}"#.utf8))
            let object = try #require(try patched.json() as? [String: Any])
            #expect(object["done"] as? Bool == true && object["title"] == nil && object["tags"] as? [String] == ["x"] && object["id"] as? Int == 7)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/todos/7"), method: "DELETE").status == 204)
            let gone = try await HTTPClient.fetch(server.url("/api/v1/todos/7"))
            #expect(gone.status == 404)
            let envelope = try #require(try gone.json() as? [String: Any])
            #expect((envelope["error"] as? [String: String])?["title"] == "Not found")
            let filtered = try await HTTPClient.fetch(server.url("/api/v1/todos?done=false&per_page=100"))
            let open = ((try filtered.json() as? [String: Any])?["data"] as? [[String: Any]])?.compactMap { $0["id"] as? Int }
            #expect(open == [1, 3, 4, 6, 8])
            let taken = try await HTTPClient.fetch(server.url("/api/v1/todos"), method: "POST", headers: MemoryTests.json, body: Data(#"{"id": 1}"#.utf8))
            #expect(taken.status == 409)
            let notObject = try await HTTPClient.fetch(server.url("/api/v1/todos/1"), method: "PUT", headers: MemoryTests.json, body: Data("[1]".utf8))
            #expect(notObject.status == 400)
            // An override still wins over the collection, as on any route.
            let put = try await HTTPClient.fetch(server.url("/__stubd/routes/app%2Ftodos:create"), method: "PUT", headers: MemoryTests.json,
                                                 body: Data(#"{"variant": "503-maintenance"}"#.utf8))
            #expect(put.status == 200)
            let refused = try await HTTPClient.fetch(server.url("/api/v1/todos"), method: "POST", headers: MemoryTests.json, body: Data("{}".utf8))
            #expect(refused.status == 503 && refused.header("Retry-After") == "120")
            let count = try await HTTPClient.fetch(server.url("/__stubd/collections/app%2Ftodos"))
            #expect((try count.json() as? [String: Any])?["count"] as? Int == 7)
        }
    }

    @Test func aTemplateDrawsTheSameValuesFromTheSameSeed() async throws {
        let stubs = try TemporaryStubDirectory([
            "svc/_state.json": #"{"visits": 0}"#,
            "svc/who/route.json": #"{"method": "GET", "path": "/who", "variants": {"200": {"template": true, "then": {"increment": {"visits": 1}}}}}"#,
            "svc/who/200.json": #"{"id": "{{uuid}}", "name": "{{fake.name}}", "n": {{counter}}, "visits": {{json state.visits}}, "at": "{{now +1h}}"}"#,
        ])
        func names(_ server: StubServer, _ headers: [String: String]) async throws -> [String] {
            var out: [String] = []
            for _ in 0..<3 {
                let body = try #require(try await HTTPClient.fetch(server.url("/who"), headers: headers).json() as? [String: Any])
                out.append("\(body["id"]!) \(body["name"]!) \(body["n"]!) \(body["visits"]!)")
            }
            return out
        }
        let first = try await withServer(stubs: stubs.url) { try await names($0, ["X-Stub-Session": "s"]) }
        let again = try await withServer(stubs: stubs.url) { try await names($0, ["X-Stub-Session": "s"]) }
        #expect(first == again)
        #expect(Set(first).count == 3)
        #expect(first.map { $0.split(separator: " ").last! } == ["1", "2", "3"])
        let other = try await withServer(stubs: stubs.url, configure: { $0.seed = 99 }) { try await names($0, ["X-Stub-Session": "s"]) }
        #expect(other.first != first.first)
        let perRequest = try await withServer(stubs: stubs.url) { server in
            try await [names(server, ["X-Stub-Seed": "7"]).first!, names(server, ["X-Stub-Seed": "7"]).first!]
        }
        #expect(perRequest[0].split(separator: " ").prefix(2) == perRequest[1].split(separator: " ").prefix(2))
    }

    @Test func stateNamesThatRenderEmptyAndFullCollectionsAreRefused() async throws {
        let stubs = try TemporaryStubDirectory([
            "svc/order/route.json": #"{"method": "POST", "path": "/orders/{id}", "variants": {"200": {"body": {}, "then": {"set": {"order.{{query.id}}": "placed"}}}}}"#,
            "svc/items/route.json": #"{"path": "/items", "collection": {}}"#,
        ])
        try await withServer(stubs: stubs.url, configure: { $0.maxCollectionObjects = 2 }) { server in
            let empty = try await HTTPClient.fetch(server.url("/orders/1"), method: "POST")
            #expect(empty.status == 400)
            #expect(String(decoding: empty.body, as: UTF8.self).contains("order.{{query.id}}"))
            #expect(try await HTTPClient.fetch(server.url("/orders/1?id=9"), method: "POST").status == 200)
            for expected in [201, 201, 409] {
                #expect(try await HTTPClient.fetch(server.url("/items"), method: "POST", headers: MemoryTests.json, body: Data("{}".utf8)).status == expected)
            }
        }
    }

    @Test func headersReadStateAndTheLoginExpiresAnHourAhead() async throws {
        let stubs = try TemporaryStubDirectory([
            "svc/_state.json": #"{"token": null}"#,
            "svc/login/route.json": #"{"method": "POST", "path": "/login", "variants": {"200": {"template": true, "then": {"set": {"token": "{{uuid}}"}}, "headers": {"X-Token": "{{state.token}}"}, "body": {"token": "{{state.token}}"}}}}"#,
        ])
        try await withServer(stubs: stubs.url) { server in
            let answer = try await HTTPClient.fetch(server.url("/login"), method: "POST")
            let token = try #require(answer.header("X-Token"))
            #expect(token.count == 36)
            #expect((try answer.json() as? [String: String])?["token"] == token)
        }
        try await withServer { server in
            let login = try await HTTPClient.fetch(server.url("/api/v1/login?email=jane@example.com&password=correct-horse"))
            let data = try #require((try login.json() as? [String: Any])?["data"] as? [String: Any])
            let expires = try #require((data["expiresAt"] as? String).flatMap { ISO8601DateFormatter().date(from: $0) })
            #expect(abs(expires.timeIntervalSinceNow - 3600) < 60)
        }
    }

    @Test func anIdleSessionForgetsWhatItRemembered() async throws {
        let now = Locked(1000.0)
        try await withServer(configure: { $0.sessionTTLSeconds = 60; $0.sessionClock = { now.withLock { $0 } } }) { server in
            let changed = try await changePass(server, from: "correct-horse", to: "battery-staple", session: "idle")
            #expect(changed.status == 200)
            now.withLock { $0 += 30 }
            let remembered = try await login(server, "battery-staple", session: "idle")
            #expect(remembered == 200, "30 s idle: still remembered")
            now.withLock { $0 += 61 }
            let forgotten = try await login(server, "correct-horse", session: "idle")
            #expect(forgotten == 200, "61 s idle: back to the seed")
        }
    }

    @Test func aNestedCollectionIsScopedByItsParent() async throws {
        let stubs = try TemporaryStubDirectory([
            "svc/posts/route.json": #"{"path": "/users/{userId}/posts", "collection": {"seed": "posts.json", "idParameter": "postId"}}"#,
            "svc/posts/posts.json": #"[{"id": 1, "userId": 1, "title": "a"}, {"id": 2, "userId": 2, "title": "b"}]"#,
        ])
        try await withServer(stubs: stubs.url) { server in
            let created = try await HTTPClient.fetch(server.url("/users/2/posts"), method: "POST", headers: MemoryTests.json, body: Data(#"{"title": "c"}"#.utf8))
            let object = try #require(try created.json() as? [String: Any])
            #expect(object["userId"] as? Int == 2 && object["id"] as? Int == 3)
            let list = try #require(try await HTTPClient.fetch(server.url("/users/2/posts")).json() as? [[String: Any]])
            #expect(list.compactMap { $0["title"] as? String } == ["b", "c"])
            #expect(try await HTTPClient.fetch(server.url("/users/1/posts/2")).status == 404, "another user's post")
            #expect(try await HTTPClient.fetch(server.url("/users/2/posts/2")).status == 200)
        }
    }

    @Test func aReloadKeepsWhatRequestsChangedAndServesNewSeedsElsewhere() async throws {
        let stubs = try TemporaryStubDirectory([
            "svc/_state.json": #"{"a": 1, "b": 1}"#,
            "svc/bump/route.json": #"{"method": "POST", "path": "/bump", "variants": {"200": {"body": {}, "then": {"increment": {"a": 1}}}}}"#,
        ])
        try await withServer(stubs: stubs.url, configure: { $0.watch = false }) { server in
            #expect(try await HTTPClient.fetch(server.url("/bump"), method: "POST", headers: ["X-Stub-Session": "s"]).status == 200)
            try Data(#"{"a": 1, "b": 5, "c": 3}"#.utf8).write(to: stubs.url.appendingPathComponent("svc/_state.json"))
            #expect(try await HTTPClient.fetch(server.url("/__stubd/reload"), method: "POST").status == 200)
            let changed = try #require(try await HTTPClient.fetch(server.url("/__stubd/state"), headers: ["X-Stub-Session": "s"]).json() as? [String: Any])
            #expect((changed["state"] as? [String: [String: Int]])?["svc"] == ["a": 2, "b": 1])
            let untouched = try #require(try await HTTPClient.fetch(server.url("/__stubd/state")).json() as? [String: Any])
            #expect((untouched["state"] as? [String: [String: Int]])?["svc"] == ["a": 1, "b": 5, "c": 3])
        }
    }
}
