import Foundation
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing

/// The paths macOS takes (libmicrohttpd on poll(2), the watcher scanning instead of inotify), run
/// on Linux: serving, delays, faults, throttled bodies and live reload.
@Suite(.timeLimit(.minutes(3))) struct PortablePathsTests {
    func portable(_ configuration: inout StubServerConfiguration) {
        configuration.eventLoop = .poll
        configuration.watchMode = .poll
    }

    @Test func thePollLoopIsChosenWhenAskedFor() {
        #expect(!EventLoopChoice.usesEpoll(.poll))
    }

    @Test func servesDelaysFaultsAndThrottlesOnThePollLoop() async throws {
        try await withServer(configure: portable) { server in
            let file = try Data(contentsOf: Repository.shippedStubs.appendingPathComponent("app/user/200.json"))
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users/1")).body == file)
            var started = monotonicMs()
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users/1?__delay=300")).status == 200)
            #expect(monotonicMs() - started >= 300)
            #expect(await HTTPClient.errorCode(server.url("/api/v1/users?__fault=reset")) == .networkConnectionLost)
            started = monotonicMs()
            let throttled = try await HTTPClient.fetch(server.url("/api/v1/users/1?__throttle=1000"))
            #expect(throttled.body == file)
            #expect(monotonicMs() - started >= Double(file.count - file.count % 100) - 50, "\(file.count) bytes at 1000 B/s")
            let parallel = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { try await HTTPClient.fetch(server.url("/api/v1/users?__delay=200")).status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(parallel == Array(repeating: 200, count: 20))
        }
    }

    @Test func theScanningWatcherReloads() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url, configure: { portable(&$0); $0.watch = true }) { server in
            try stubs.write(["svc/hello/200.json": #"{"greeting": "scanned"}"#])
            let deadline = monotonicMs() + 5000
            var text = ""
            while monotonicMs() < deadline {
                text = try await HTTPClient.fetch(server.url("/hello")).text
                if text.contains("scanned") { break }
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            #expect(text.contains("scanned"))
        }
    }
}
