import Foundation
import Testing
import StubTestSupport
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
    @Test(arguments: ["trickle", "silent", "garbage", "huge", "array", "tls-trickle"])
    func aStoreThatMisbehavesNeitherKeepsStubsFromBeingServedNorHoldsUpStop(mode: String) async throws {
        let script = Repository.root.appendingPathComponent("Tests/Clients/hostile_store.py").path
        var scriptArguments = ["python3", script, mode]
        var state = ["--state", "redis://127.0.0.1:PORT"]
        let tls = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-hostile-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: tls) }
        if mode == "tls-trickle" {
            // A certificate stubd trusts, so that the handshake completes and the reply is what trickles.
            let made = try await Subprocess.run(Repository.stubdBinary, ["tls", "init", "--tls-dir", tls.path])
            try #require(made.exitCode == 0, "\(made.stderr)")
            scriptArguments += [tls.appendingPathComponent("server.pem").path, tls.appendingPathComponent("server-key.pem").path]
            state = ["--state", "rediss://localhost:PORT", "--state-ca", tls.appendingPathComponent("ca.pem").path]
        }
        let store = try Spawned("/usr/bin/env", scriptArguments)
        defer { kill(store.pid, SIGKILL); store.waitForExit() }
        let port = try #require(Int(store.readLine().trimmingCharacters(in: .whitespacesAndNewlines)), "the store script printed no port")
        state[1] = state[1].replacingOccurrences(of: "PORT", with: String(port))
        let arguments = ["serve", "--stubs", Repository.shippedStubs.path, "--port", "0", "--log", "off", "--no-watch"] + state
        let started = Date()
        let daemon = try await OffPool.run {
            try RunningDaemon(arguments: arguments)
        }
        let startSeconds = Date().timeIntervalSince(started)
        let stub = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", daemon.baseURL + "/api/v1/users/1"])
        #expect(stub.stdout == "200", "\(mode): the stub files are served")
        let health = try await Curl.run(["-s", daemon.baseURL + "/__stubd/health"]).stdout
        #expect(health.contains(#""status": "degraded""#) && health.contains("unreachable"), "\(mode): \(health)")
        let why = ["trickle": "no whole answer within", "silent": "no whole answer within", "garbage": "Protocol error",
                   "huge": "a reply of more than 64 MiB", "array": "more than one reply can hold", "tls-trickle": "no whole answer within"][mode]!
        #expect(health.contains(why), "\(mode): health says why: \(health)")
        let stopping = Date()
        let (status, _) = try await OffPool.run { daemon.terminate(signal: SIGTERM) }
        let stopSeconds = Date().timeIntervalSince(stopping)
        #expect(status == 0, "\(mode): \(daemon.standardError)")
        print("hostile store \(mode): serving after \(startSeconds) s, stopped \(stopSeconds) s after SIGTERM; health: \(health.prefix(400))")
    }
}
