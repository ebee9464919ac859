import Foundation
import StubServer
import Testing
import StubTestSupport

/// Which libmicrohttpd serves: the daemon names it in `--version`, and `make test-mhd1` checks
/// that every process of its run (the test process and the daemons it starts, whose environment
/// some tests replace) loaded the release it built, not the system's.
@Suite(.timeLimit(.minutes(1))) struct LibraryVersionTests {
    static let expected = ProcessInfo.processInfo.environment["STUBD_EXPECT_LIBMICROHTTPD"]

    @Test func versionNamesTheLibraryTheDaemonLoaded() async throws {
        let result = try await Subprocess.run(Repository.stubdBinary, ["--version"], environment: ["PATH": "/usr/bin:/bin"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("(libmicrohttpd \(StubServer.libmicrohttpdVersion))"), "\(result.stdout)")
    }

    @Test(.enabled(if: LibraryVersionTests.expected != nil, "STUBD_EXPECT_LIBMICROHTTPD is not set: this run names no libmicrohttpd release"))
    func thisRunIsOnTheReleaseItAskedFor() {
        #expect(StubServer.libmicrohttpdVersion == LibraryVersionTests.expected)
        if StubServer.libmicrohttpdVersion.hasPrefix("1.") { #expect(StubServer.libraryRefusesMalformedHeads) }
        if StubServer.libmicrohttpdVersion == "0.9.75" { #expect(!StubServer.libraryRefusesMalformedHeads) }
    }
}
