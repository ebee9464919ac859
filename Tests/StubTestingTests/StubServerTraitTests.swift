import Foundation
import StubdClient
import StubServer
import StubTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Stubs for these tests: `GET /hello` with two variants.
enum HelloStubs {
    static let files = [
        "hello/route.json": #"{"method": "GET", "path": "/hello", "default": "200-hi", "variants": {"200-hi": {}, "200-bye": {}}}"#,
        "hello/200-hi.json": #"{"greeting": "hi"}"#,
        "hello/200-bye.json": #"{"greeting": "bye"}"#,
    ]

    /// The greeting `url` answers.
    static func greeting(_ url: URL) async throws -> String? {
        let (data, _) = try await URLSession.shared.data(from: url)
        return try JSONDecoder().decode([String: String].self, from: data)["greeting"]
    }
}

/// The trait on a suite: one server, a session per test, all ended with the scope.
@Suite(.stubServer(files: HelloStubs.files))
struct StubServerTraitSuiteTests {
    @Test func aTestHasASessionWithItsPrefixAndABoundClient() async throws {
        let stubs = try #require(StubdTestSession.current)
        let server = try #require(stubs.server)
        #expect(stubs.serverURL == server.baseURL)
        #expect(stubs.baseURL.absoluteString == server.baseURL.absoluteString + "/__session/" + stubs.id)
        #expect(stubs.id.hasPrefix("aTestHasASessionWithItsPrefixAndABoundClient-"))
        #expect(stubs.client.session == stubs.id)
        #expect(stubs.launchEnvironment[StubdLaunchEnvironment.baseURL] == stubs.baseURL.absoluteString)
        #expect(stubs.launchEnvironment[StubdLaunchEnvironment.session] == stubs.id)
    }

    @Test func anOverrideReachesOnlyTheTestsOwnRequests() async throws {
        let stubs = try #require(StubdTestSession.current)
        try await stubs.client.override(route: "hello", variant: "200-bye")
        #expect(try await HelloStubs.greeting(stubs.url("/hello")) == "bye")
        #expect(try await HelloStubs.greeting(stubs.serverURL.appendingPathComponent("hello")) == "hi")
        // The journal read through the session holds the session's request only.
        #expect(try await stubs.client.journal(route: "hello").count == 1)
    }

    @Test(arguments: ["hi", "bye"])
    func eachCaseOfAParameterizedTestHasItsOwnSession(variant: String) async throws {
        let stubs = try #require(StubdTestSession.current)
        #expect(try await stubs.client.journal().isEmpty)
        try await stubs.client.override(route: "hello", variant: "200-" + variant)
        #expect(try await HelloStubs.greeting(stubs.url("/hello")) == variant)
        #expect(try await stubs.client.journal(route: "hello").count == 1)
    }

    @Test func theSuitesTestsShareOneServer() async throws {
        let stubs = try #require(StubdTestSession.current)
        try await SharedServerRecord.shared.note(stubs.serverURL)
        #expect(await SharedServerRecord.shared.urls.count == 1)
    }

    @Suite struct Inner {
        @Test func anInnerSuiteUsesTheOuterServer() async throws {
            let stubs = try #require(StubdTestSession.current)
            try await SharedServerRecord.shared.note(stubs.serverURL)
            #expect(await SharedServerRecord.shared.urls.count == 1)
        }
    }
}

/// The server URLs tests of the suite above saw.
actor SharedServerRecord {
    static let shared = SharedServerRecord()
    private(set) var urls: Set<URL> = []
    func note(_ url: URL) throws { urls.insert(url) }
}

/// The trait on one test, and outside any.
struct StubServerTraitTestTests {
    @Test(.stubServer(files: HelloStubs.files)) func aTestsOwnServerServesItsStubs() async throws {
        let stubs = try #require(StubdTestSession.current)
        #expect(try await HelloStubs.greeting(stubs.url("/hello")) == "hi")
    }

    @Test(.stubServer(files: HelloStubs.files), arguments: [1, 2, 3])
    func theCasesOfAParameterizedTestShareItsServer(n: Int) async throws {
        let stubs = try #require(StubdTestSession.current)
        let server = try #require(stubs.server)
        // Kept alive by the record, so no later server can take its identity.
        let earlier = await ParameterizedRecord.shared.note(server, session: stubs.id)
        #expect(earlier.servers.allSatisfy { $0 === server }, "a case got a server of its own")
        #expect(!earlier.sessions.contains(stubs.id))
        #expect(try await HelloStubs.greeting(stubs.url("/hello")) == "hi")
    }

    @Test func outsideTheTraitThereIsNoSession() {
        #expect(StubdTestSession.current == nil)
    }

    @Test func aSessionEndsWithItsTestAndTheServerStopsWithItsScope() async throws {
        let trait = StubServerTrait.stubServer(files: HelloStubs.files)
        let test = try #require(Test.current)
        let seen = Seen()
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let stubs = try #require(StubdTestSession.current)
            _ = try await HelloStubs.greeting(stubs.url("/hello"))
            #expect(try await stubs.client.sessions().map(\.session) == [stubs.id])
            await seen.set(stubs)
        }
        let stubs = try #require(await seen.session)
        // The server stopped with the scope: nothing answers at its address any more.
        await #expect(throws: (any Error).self) { _ = try await HelloStubs.greeting(stubs.serverURL.appendingPathComponent("hello")) }
    }

    @Test func attachingToARunningStubdUsesItAndClearsTheSessionAfter() async throws {
        let directory = try TemporaryStubDirectory(HelloStubs.files)
        let server = try StubServer(stubsAt: directory.url, port: 0)
        defer { server.stop() }
        let trait = StubServerTrait.stubServer(attachingTo: server.baseURL)
        let test = try #require(Test.current)
        let seen = Seen()
        try await trait.provideScope(for: test, testCase: Test.Case.current) {
            let stubs = try #require(StubdTestSession.current)
            #expect(stubs.server == nil)
            try await stubs.client.override(route: "hello", variant: "200-bye")
            #expect(try await HelloStubs.greeting(stubs.url("/hello")) == "bye")
            await seen.set(stubs)
        }
        let stubs = try #require(await seen.session)
        // The session is gone from the server that goes on running: its override and journal too.
        let admin = StubdClient(baseURL: server.baseURL)
        #expect(try await !admin.sessions().contains { $0.session == stubs.id })
        #expect(try await HelloStubs.greeting(stubs.url("/hello")) == "hi")
    }

    @Test func aSessionNameIsSafeForAURLAndUnique() {
        let a = StubdTestSession(serverURL: URL(string: "http://127.0.0.1:1/")!, name: "löginFails(with: \"x/y\")")
        let b = StubdTestSession(serverURL: URL(string: "http://127.0.0.1:1/")!, name: "löginFails(with: \"x/y\")")
        #expect(a.id.range(of: "^l-ginFails-with-x-y-[0-9a-f]{8}$", options: .regularExpression) != nil, "\(a.id)")
        #expect(a.id != b.id)
        #expect(a.baseURL.absoluteString == "http://127.0.0.1:1/__session/" + a.id)
    }
}

/// The servers and sessions the parameterized test's cases saw.
actor ParameterizedRecord {
    static let shared = ParameterizedRecord()
    private var servers: [StubServer] = []
    private var sessions: Set<String> = []

    /// Notes a case's server and session; returns those noted before it.
    func note(_ server: StubServer, session: String) -> (servers: [StubServer], sessions: Set<String>) {
        defer {
            servers.append(server)
            sessions.insert(session)
        }
        return (servers, sessions)
    }
}

actor Seen {
    private(set) var session: StubdTestSession?
    func set(_ session: StubdTestSession) { self.session = session }
}
