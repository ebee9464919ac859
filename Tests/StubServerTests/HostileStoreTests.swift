import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `serve --state` against stores that misbehave (Tests/Clients/hostile_store.py): the stub
/// files are served anyway, health says why the store is not in use, and SIGTERM is obeyed.
/// The times are printed; bench/hostile-store.sh measures them against the goals.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct HostileStoreTests {
    @Test(arguments: ["trickle", "silent", "garbage", "huge"])
    func aStoreThatMisbehavesNeitherKeepsStubsFromBeingServedNorHoldsUpStop(mode: String) async throws {
        let script = Repository.root.appendingPathComponent("Tests/Clients/hostile_store.py").path
        let store = try Spawned("/usr/bin/env", ["python3", script, mode])
        defer { kill(store.pid, SIGKILL); store.waitForExit() }
        let port = try #require(Int(store.readLine().trimmingCharacters(in: .whitespacesAndNewlines)), "the store script printed no port")
        let started = Date()
        let daemon = try await OffPool.run {
            try RunningDaemon(arguments: ["serve", "--stubs", Repository.shippedStubs.path, "--port", "0", "--log", "off", "--no-watch",
                                          "--state", "redis://127.0.0.1:\(port)"])
        }
        let startSeconds = Date().timeIntervalSince(started)
        let stub = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", daemon.baseURL + "/api/v1/users/1"])
        #expect(stub.stdout == "200", "\(mode): the stub files are served")
        let health = try await Curl.run(["-s", daemon.baseURL + "/__stubd/health"]).stdout
        #expect(health.contains(#""status": "degraded""#) && health.contains("unreachable"), "\(mode): \(health)")
        let why = ["trickle": "no whole answer within", "silent": "no whole answer within", "garbage": "Protocol error", "huge": "a reply of more than 64 MiB"][mode]!
        #expect(health.contains(why), "\(mode): health says why: \(health)")
        let stopping = Date()
        let (status, _) = try await OffPool.run { daemon.terminate(signal: SIGTERM) }
        let stopSeconds = Date().timeIntervalSince(stopping)
        #expect(status == 0, "\(mode): \(daemon.standardError)")
        print("hostile store \(mode): serving after \(startSeconds) s, stopped \(stopSeconds) s after SIGTERM; health: \(health.prefix(400))")
    }
}
