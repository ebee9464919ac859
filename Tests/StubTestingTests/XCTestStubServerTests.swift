import Foundation
import StubdClient
import StubTesting
import XCTest
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The XCTest helper: a server and a session per test, stopped by a teardown block.
final class XCTestStubServerTests: XCTestCase {
    func testStartStubServerGivesASessionOnAServerThatServesTheStubs() async throws {
        let directory = try TemporaryStubDirectory(HelloStubs.files)
        let stubs = try startStubServer(stubsAt: directory.url)
        XCTAssertTrue(stubs.id.contains("XCTestStubServerTests"), stubs.id)
        try await stubs.client.override(route: "hello", variant: "200-bye")
        let inSession = try await HelloStubs.greeting(stubs.url("/hello"))
        XCTAssertEqual(inSession, "bye")
        let outside = try await HelloStubs.greeting(stubs.serverURL.appendingPathComponent("hello"))
        XCTAssertEqual(outside, "hi")
    }
}
