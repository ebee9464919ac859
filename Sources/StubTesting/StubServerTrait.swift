#if canImport(Testing) && compiler(>=6.1)  // TestScoping came with Swift 6.1's Testing
import Foundation
import StubServer
import StubdClient
import Testing

/// A Swift Testing trait that gives a suite or a test a stubd, and every test its own session.
///
/// On a suite, the server starts once before its first test and stops after its last; each test
/// (each case of a parameterized test) runs in a fresh `StubdTestSession`, so tests running in
/// parallel never see each other's overrides, sequences, holds, journal or state. On a single
/// test, the server lives for that test. Inside a test, `StubdTestSession.current` holds the
/// session: its base URL (with the session prefix), a `StubdClient` bound to it, and the
/// in-process server.
///
/// ```swift
/// @Suite(.stubServer(stubs: stubsURL))
/// struct LoginTests {
///     @Test func wrongPasswordShowsTheServersMessage() async throws {
///         let stubs = try #require(StubdTestSession.current)
///         try await stubs.client.override(route: "app/login", variant: "401")
///         let api = APIClient(server: stubs.baseURL)
///         await #expect(throws: AppError.self) { try await api.login("jane", "wrong") }
///         #expect(try await stubs.client.journal(route: "app/login").count == 1)
///     }
/// }
/// ```
public struct StubServerTrait: SuiteTrait, TestTrait, TestScoping {
    /// Where the scope's server comes from.
    enum Source: Sendable {
        /// A `StubServer` started in-process on the stubs at this directory.
        case directory(URL, @Sendable (inout StubServerConfiguration) -> Void)
        /// A `StubServer` on stubs written from this `path → contents` map.
        case files([String: String], @Sendable (inout StubServerConfiguration) -> Void)
        /// A stubd already running at this URL (`stubd serve` started by the CI script).
        case running(URL, adminToken: String?)
    }

    let source: Source

    /// A suite's trait applies to each of its tests too: that is where the sessions are made.
    public var isRecursive: Bool { true }

    /// The suite's scope, or a test's outside its cases, starts the server (so a parameterized
    /// test's cases share one); each test case's scope makes a session.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> StubServerTrait? {
        self
    }

    /// Starts the server (or checks the running one) for the outermost scope that has the trait,
    /// and runs each test case in a session of its own, ended when the case ends.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        if let endpoint = StubEndpoint.current {
            // An inner suite reuses the outer one's server; so does a test whose session another
            // `.stubServer` around it already made.
            if test.isSuite || testCase == nil || StubdTestSession.current != nil { return try await function() }
            return try await runInSession(test, on: endpoint, function)
        }
        try await StubEndpoint.open(source) { endpoint in
            try await StubEndpoint.$current.withValue(endpoint) {
                if test.isSuite || testCase == nil { return try await function() }
                try await runInSession(test, on: endpoint, function)
            }
        }
    }

    private func runInSession(_ test: Test, on endpoint: StubEndpoint,
                              _ function: @Sendable () async throws -> Void) async throws {
        let session = StubdTestSession(serverURL: endpoint.serverURL, name: test.name, adminToken: endpoint.adminToken)
        do {
            try await StubdTestSession.$current.withValue(session) { try await function() }
        } catch {
            try? await session.end()
            throw error
        }
        try await session.end()
    }
}

extension Trait where Self == StubServerTrait {
    /// A stubd started in-process on port 0 of 127.0.0.1, serving the stub directory at `stubs`;
    /// `configure` adjusts the configuration first (a delay, a journal size, HTTPS).
    public static func stubServer(stubs: URL,
                                  configure: @escaping @Sendable (inout StubServerConfiguration) -> Void = { _ in }) -> Self {
        StubServerTrait(source: .directory(stubs, configure))
    }

    /// A stubd started in-process on stubs written from a `path → contents` map, as
    /// ``TemporaryStubDirectory`` writes them; removed when the scope ends.
    public static func stubServer(files: [String: String],
                                  configure: @escaping @Sendable (inout StubServerConfiguration) -> Void = { _ in }) -> Self {
        StubServerTrait(source: .files(files, configure))
    }

    /// A stubd already running at `url` (started by the CI script, shared by several test
    /// processes); the scope waits up to 10 s for it to be healthy. `adminToken` when it runs
    /// with `--admin-token`.
    public static func stubServer(attachingTo url: URL, adminToken: String? = nil) -> Self {
        StubServerTrait(source: .running(url, adminToken: adminToken))
    }
}
#endif
