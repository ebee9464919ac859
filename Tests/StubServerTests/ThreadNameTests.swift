import Foundation
import StubTestSupport
import StubTesting
import Testing

/// Every thread stubd starts says its role, so a stack dump or `top -H` tells the timer from the
/// watcher and the log writer (libmicrohttpd's own threads keep libmicrohttpd's names).
@Suite(.timeLimit(.minutes(1))) struct ThreadNameTests {
    @Test(.enabled(if: ProcessThreads.canCount, "thread names are read from /proc, which macOS does not have"))
    func backgroundThreadsAreNamedByRole() async throws {
        let stubs = try TemporaryStubDirectory(["app/a/route.json": #"{"method": "GET", "path": "/a"}"#, "app/a/200.json": "{}"])
        let daemon = try RunningDaemon(arguments: ["serve", "--stubs", stubs.url.path, "--host", "127.0.0.1", "--port", "0", "--log", "text"])
        defer { _ = daemon.terminate(signal: SIGTERM) }
        let roles = ["stubd-timer", "stubd-hangup", "stubd-watch", "stubd-sweep", "stubd-log", "stubd-job-0"]
        // A thread names itself as it starts; some start after the port is announced.
        try await waitUntil("every role's thread") { Set(ProcessThreads.names(of: daemon.pid) ?? []).isSuperset(of: roles) }
        let names = try #require(ProcessThreads.names(of: daemon.pid))
        for role in roles {
            #expect(names.contains(role), "no \(role) among \(names.sorted())")
        }
    }
}
