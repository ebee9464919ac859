import Foundation
@testable import StubServer
import Testing
import StubTestSupport

/// `localhost` on both stacks: one port on 127.0.0.1 and ::1, because clients resolve localhost
/// to either address first.
@Suite(.timeLimit(.minutes(3))) struct DualStackTests {
    func status(_ url: String) async throws -> String {
        try await Curl.run(["-s", "-g", "-o", "/dev/null", "-w", "%{http_code}", "-m", "5", url]).stdout
    }

    @Test func localhostServesBothLoopbacksOnOnePort() async throws {
        try await withServer(configure: { $0.host = "localhost" }) { server in
            #expect(server.listensOnIPv6Loopback)
            #expect(server.baseURL.absoluteString == "http://127.0.0.1:\(server.port)")
            let v4 = try await status("http://127.0.0.1:\(server.port)/api/v1/users/1")
            let v6 = try await status("http://[::1]:\(server.port)/api/v1/users/1")
            #expect(v4 == "200")
            #expect(v6 == "200")
            // Both sockets share one server: a delay suspended on ::1 is drained by stop like any other.
            let slow = try await Curl.run(["-s", "-g", "-o", "/dev/null", "-w", "%{http_code}", "http://[::1]:\(server.port)/api/v1/users?__delay=300"])
            #expect(slow.stdout == "200")
            #expect(server.journal(route: "app/user").count == 2)
        }
    }

    @Test func theDaemonDefaultsToLocalhostAndAnIPv4HostStaysIPv4() async throws {
        let daemon = try await OffPool.run { try RunningDaemon(arguments: ["--stubs", Repository.shippedStubs.path, "--port", "0", "--log", "off"]) }
        #expect(daemon.baseURL.hasPrefix("http://127.0.0.1:"))
        let viaIPv6 = try await status("http://[::1]:\(daemon.port)/api/v1/users/1")
        #expect(viaIPv6 == "200")
        _ = try await OffPool.run { daemon.terminate(signal: SIGTERM) }
        let v4 = try await OffPool.run {
            try RunningDaemon(arguments: ["--stubs", Repository.shippedStubs.path, "--port", "0", "--host", "127.0.0.1", "--log", "off"])
        }
        let viaIPv4 = try await status("http://127.0.0.1:\(v4.port)/api/v1/users/1")
        #expect(viaIPv4 == "200")
        let notServed = try await status("http://[::1]:\(v4.port)/api/v1/users/1")
        #expect(notServed == "000", "::1 is not served")
        _ = try await OffPool.run { v4.terminate(signal: SIGTERM) }
    }
}
