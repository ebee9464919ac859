import Foundation
import StubServer
import StubTesting

/// Paths in this repository, found from this file's location.
package enum Repository {
    package static var root: URL {
        // Tests/StubTestSupport/LiveServer.swift
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    package static var shippedStubs: URL { root.appendingPathComponent("Stubs") }

    /// The `stubd` executable built beside the test bundle.
    package static var stubdBinary: String {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("stubd").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return root.appendingPathComponent(".build/debug/stubd").path
    }
}

/// Starts a server for one test body and always stops it, on success and on error.
package func withServer<T>(stubs: URL = Repository.shippedStubs, configure: (inout StubServerConfiguration) -> Void = { _ in },
                   _ body: (StubServer) async throws -> T) async throws -> T {
    var configuration = StubServerConfiguration()
    // `make test` runs the serving, delay, fault, throttle and reload suites a second time with
    // STUBD_PORTABLE=1: libmicrohttpd on poll(2) and the scanning watcher, the paths macOS takes.
    if ProcessInfo.processInfo.environment["STUBD_PORTABLE"] == "1" {
        configuration.eventLoop = .poll
        configuration.watchMode = .poll
    }
    return try await withStubServer(stubsAt: stubs, configure: {
        $0 = configuration
        configure(&$0)
    }, body)
}

/// Milliseconds on a monotonic clock.
package func monotonicMs() -> Double {
    Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000
}
