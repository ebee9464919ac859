#if canImport(XCTest)
import Foundation
import StubServer
import StubdClient
import XCTest

extension XCTestCase {
    /// For XCTest: starts a `StubServer` in-process on port 0 for this test, with a session of
    /// its own, and stops the server when the test ends (a teardown block), whether it passed
    /// or failed. Use the session's `baseURL` as the API's base and its `client` to steer it.
    ///
    /// ```swift
    /// final class UsersTests: XCTestCase {
    ///     func testAnEmptyListShowsThePlaceholder() async throws {
    ///         let stubs = try startStubServer(stubsAt: stubsURL)
    ///         try await stubs.client.override(route: "app/users", variant: "200-empty")
    ///         let users = try await APIClient(server: stubs.baseURL).users()
    ///         XCTAssertEqual(users, [])
    ///     }
    /// }
    /// ```
    ///
    /// A UI test, whose app runs in another process, attaches to a `stubd serve` instead:
    /// `StubdTestSession(serverURL:name:)` in `setUp`, `end()` in a teardown block.
    public func startStubServer(stubsAt directory: URL,
                                configure: (inout StubServerConfiguration) -> Void = { _ in }) throws -> StubdTestSession {
        var configuration = StubServerConfiguration()
        configure(&configuration)
        let server = try StubServer(stubsAt: directory, configuration: configuration)
        addTeardownBlock { server.stop() }
        return StubdTestSession(serverURL: server.baseURL, name: name, adminToken: configuration.adminToken)
    }
}
#endif
