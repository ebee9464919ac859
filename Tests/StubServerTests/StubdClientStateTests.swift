import Foundation
import StubServer
import StubTestSupport
import StubTesting
import StubdClient
import Testing

/// `StubdClient`'s state and collection calls against an in-process server on port 0 serving the
/// shipped stubs: app's `_state.json` (`password`, `passwordChanges`), which `/login` reads and
/// `/changePass` changes, and the `app/todos` collection seeded with five todos.
@Suite(.timeLimit(.minutes(3))) struct StubdClientStateTests {
    struct Login: Codable, Equatable {
        var password: String
        var passwordChanges: Int
    }

    struct Todo: Codable, Equatable {
        var id: Int
        var title: String
        var done: Bool
    }

    typealias JSON = StubdClient.JSON

    /// The error `body` throws, or nil.
    func thrown(_ body: () async throws -> Void) async -> (any Error)? {
        do { try await body() } catch { return error }
        return nil
    }

    /// `GET /api/v1/login` as Jane with `password`, in `session`: its status.
    func login(_ server: StubServer, _ password: String, session: String? = nil) async throws -> Int {
        let url = URL(string: server.url("/api/v1/login").absoluteString + "?email=jane%40example.com&password=\(password)")!
        return try await HTTPClient.fetch(url, headers: session.map { ["X-Stub-Session": $0] } ?? [:]).status
    }

    /// `POST /api/v1/changePass` from `old` to `new`, in `session`: its status.
    func changePassword(_ server: StubServer, from old: String, to new: String, session: String? = nil) async throws -> Int {
        var headers = ["Content-Type": "application/json"]
        if let session { headers["X-Stub-Session"] = session }
        let body = Data(#"{"oldPassword": "\#(old)", "newPassword": "\#(new)"}"#.utf8)
        return try await HTTPClient.fetch(server.url("/api/v1/changePass"), method: "POST", headers: headers, body: body).status
    }

    @Test func theShippedSeedIsReadRawAndTyped() async throws {
        try await withServer { server in
            let stubd = StubdClient(baseURL: server.baseURL)
            let state = try await stubd.state()
            #expect(state == ["app": ["password": "correct-horse", "passwordChanges": 0]])
            #expect(try await stubd.state(of: "app", as: Login.self) == Login(password: "correct-horse", passwordChanges: 0))
            let error = await thrown { _ = try await stubd.state(of: "shop", as: Login.self) }
            guard case .keyNotFound(let key, let context)? = error as? DecodingError else { Issue.record("expected keyNotFound, got \(String(describing: error))"); return }
            #expect(key.stringValue == "shop" && context.debugDescription.contains(#"service "shop"; services with state: "app""#), "\(context)")
        }
    }

    @Test func aRequestThatChangesStateShowsInState() async throws {
        try await withServer { server in
            let stubd = StubdClient(baseURL: server.baseURL)
            #expect(try await changePassword(server, from: "correct-horse", to: "battery-staple") == 200)
            let app = try #require(try await stubd.state()["app"])
            #expect(app["password"] == "battery-staple" && app["passwordChanges"] == 1, "\(app)")
        }
    }

    @Test func setStateIsSeenByTheNextRequest() async throws {
        try await withServer { server in
            let stubd = StubdClient(baseURL: server.baseURL)
            #expect(try await login(server, "s3cret") == 401)
            try await stubd.setState(["password": "s3cret", "passwordChanges": 4], for: "app")
            #expect(try await login(server, "s3cret") == 200)
            #expect(try await login(server, "correct-horse") == 401)
            try await stubd.setState(Login(password: "typed", passwordChanges: 9), for: "app")
            #expect(try await login(server, "typed") == 200)
            #expect(try await stubd.state(of: "app", as: Login.self) == Login(password: "typed", passwordChanges: 9))
            // A replacement is whole: a name left out is gone.
            try await stubd.setState(["password": "only"] as [String: String], for: "app")
            #expect(try await stubd.state()["app"] == ["password": "only"])
        }
    }

    @Test func twoSessionsAreKeptApart() async throws {
        try await withServer { server in
            let a = StubdClient(baseURL: server.baseURL, session: "sim-a")
            let b = StubdClient(baseURL: server.baseURL, session: "sim-b")
            let global = StubdClient(baseURL: server.baseURL)
            try await a.setState(["password": "only-a", "passwordChanges": 0], for: "app")
            #expect(try await login(server, "only-a", session: "sim-a") == 200)
            #expect(try await login(server, "only-a", session: "sim-b") == 401)
            #expect(try await login(server, "only-a") == 401)
            #expect(try await b.state()["app"]?["password"] == "correct-horse")
            #expect(try await global.state(session: "sim-a")["app"]?["password"] == "only-a", "a call may name another session")
            try await a.replaceCollection("app/todos", with: [Todo(id: 1, title: "A's only todo", done: false)])
            #expect(try await a.collections().map(\.count) == [1])
            #expect(try await b.collections().map(\.count) == [5])
            #expect(try await global.collections().map(\.count) == [5])
        }
    }

    @Test func resetStatePutsTheSeedsBack() async throws {
        try await withServer { server in
            let stubd = StubdClient(baseURL: server.baseURL, session: "qa")
            #expect(try await changePassword(server, from: "correct-horse", to: "new-one", session: "qa") == 200)
            let created = try await HTTPClient.fetch(server.url("/api/v1/todos"), method: "POST",
                                                     headers: ["Content-Type": "application/json", "X-Stub-Session": "qa"],
                                                     body: Data(#"{"title": "Call mum", "done": false}"#.utf8))
            #expect(created.status == 201)
            #expect(try await stubd.collections().map(\.count) == [6])
            try await stubd.resetState()
            #expect(try await stubd.state(of: "app", as: Login.self) == Login(password: "correct-horse", passwordChanges: 0))
            #expect(try await stubd.collections().map(\.count) == [5])
            #expect(try await login(server, "correct-horse", session: "qa") == 200)
        }
    }

    @Test func collectionsAreListedReplacedAndReset() async throws {
        try await withServer { server in
            let stubd = StubdClient(baseURL: server.baseURL)
            let listed = try await stubd.collections()
            #expect(listed.map(\.id) == ["app/todos"] && listed.map(\.path) == ["/api/v1/todos"] && listed.map(\.count) == [5])
            let seeded = try await stubd.collection("app/todos", as: Todo.self)
            #expect(seeded.map(\.id) == [1, 2, 3, 4, 5] && seeded.first?.title == "Buy oat milk")

            try await stubd.replaceCollection("app/todos", with: [Todo(id: 7, title: "Only this", done: true)])
            let list = try await HTTPClient.fetch(server.url("/api/v1/todos"))
            let data = try #require((try list.json() as? [String: Any])?["data"] as? [[String: Any]])
            #expect(data.count == 1 && data.first?["title"] as? String == "Only this", "\(list.text)")
            #expect(try await HTTPClient.fetch(server.url("/api/v1/todos/3")).status == 404)
            let raw = try await stubd.collection("app/todos", as: JSON.self)
            #expect(raw == [["id": 7, "title": "Only this", "done": true]])

            // Every object needs its id: the server's complaint is the error.
            let bad = await thrown { try await stubd.replaceCollection("app/todos", with: [["title": "no id"] as JSON]) }
            guard case .status(400, let body)? = bad as? StubdClientError else { Issue.record("expected a 400, got \(String(describing: bad))"); return }
            #expect(body.contains("[0]: expected an object with id"), "\(body)")

            try await stubd.resetCollection("app/todos")
            #expect(try await stubd.collection("app/todos", as: Todo.self) == seeded)
            #expect(try await HTTPClient.fetch(server.url("/api/v1/todos/3")).text.contains("Renew passport"))
        }
    }

    @Test func anUnknownCollectionIsAnErrorNamingIt() async throws {
        try await withServer { server in
            let stubd = StubdClient(baseURL: server.baseURL)
            let calls: [(String, () async throws -> Void)] = [
                ("read", { _ = try await stubd.collection("app/nope", as: JSON.self) }),
                ("replace", { try await stubd.replaceCollection("app/nope", with: [Todo]()) }),
                ("reset", { try await stubd.resetCollection("app/nope") }),
            ]
            for (name, call) in calls {
                do {
                    try await call()
                    Issue.record("\(name) of an unknown collection should throw")
                } catch StubdClientError.status(let status, let body) {
                    #expect(status == 404 && body.contains("unknown collection") && body.contains("app/nope") && body.contains("app/todos"),
                            "\(name): \(status) \(body)")
                }
            }
        }
    }

    /// The same seed draws the same random values in two sessions; another seed draws others.
    @Test func aSeedMakesRandomValuesRepeat() async throws {
        let stubs = try TemporaryStubDirectory([
            "api/token/route.json": #"{"method": "GET", "path": "/token", "variants": {"200": {"template": true}}}"#,
            "api/token/200.json": #"{"token": "{{random.string 16}}"}"#,
        ])
        try await withServer(stubs: stubs.url) { server in
            func token(_ session: String) async throws -> String {
                try await HTTPClient.fetch(server.url("/token"), headers: ["X-Stub-Session": session]).text
            }
            for (session, seed) in [("one", 42), ("two", 42), ("three", 43)] {
                try await StubdClient(baseURL: server.baseURL, session: session).setSeed(UInt64(seed))
            }
            let (one, two, three) = (try await token("one"), try await token("two"), try await token("three"))
            #expect(one.contains("token") && one == two && one != three, "\(one) \(two) \(three)")
            let error = await thrown { try await StubdClient(baseURL: server.baseURL).setSeed(UInt64.max) }
            guard case .status(400, let body)? = error as? StubdClientError else { Issue.record("expected a 400, got \(String(describing: error))"); return }
            #expect(body.contains("seed"), "\(body)")
            try await StubdClient(baseURL: server.baseURL, session: "one").setSeed(nil)
        }
    }
}
