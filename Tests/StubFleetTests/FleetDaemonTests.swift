import Foundation
import Testing
import StubTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The fleet as it is deployed: `stubd serve --state` processes on one Redis, behind HAProxy
/// (Debian's `haproxy`) as the compose file runs them, driven with curl.
@Suite(.timeLimit(.minutes(3)), .serialized, .requires(.redisServer))
struct FleetDaemonTests {
    static func replicas(_ store: StoreFixture, count: Int = 3) async throws -> [RunningDaemon] {
        var started: [RunningDaemon] = []
        for i in 1...count {
            started.append(try await OffPool.run {
                try RunningDaemon(arguments: ["serve", "--stubs", Repository.shippedStubs.path, "--port", "0", "--log", "off", "--no-watch",
                                              "--state", store.url, "--replica", "r\(i)"])
            })
        }
        return started
    }

    static func get(_ url: String, _ extra: [String] = []) async throws -> (status: Int, body: String) {
        let got = try await Curl.run(["-s", "-w", "\n%{http_code}"] + extra + [url])
        let lines = got.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func count(_ daemon: RunningDaemon) async throws -> Int? {
        let body = try await get(daemon.baseURL + "/__stubd/journal/count").body
        return (try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])?["count"] as? Int
    }

    @Test func aReplicaKilledMidRunLosesNothingTheOthersRecorded() async throws {
        let store = try StoreFixture()
        try store.start()
        let fleet = try await FleetDaemonTests.replicas(store)
        defer { for daemon in fleet where daemon.child.isRunning { _ = daemon.terminate(signal: SIGKILL) } }
        for i in 0..<30 { #expect(try await FleetDaemonTests.get(fleet[i % 3].baseURL + "/api/v1/users/1").status == 200) }
        #expect(try await FleetDaemonTests.count(fleet[0]) == 30)
        // Killed, not stopped: nothing it holds is sent, and everything it sent stays.
        _ = try await OffPool.run { fleet[1].terminate(signal: SIGKILL) }
        for i in 0..<10 { #expect(try await FleetDaemonTests.get(fleet[i % 2 == 0 ? 0 : 2].baseURL + "/api/v1/users/2").status == 200) }
        #expect(try await FleetDaemonTests.count(fleet[2]) == 40)
        #expect(try await FleetDaemonTests.count(fleet[0]) == 40)
    }

    @Test(.requires(.haproxy))
    func aSequenceBehindHAProxyPlaysOnceAndEveryReplicaSeesEveryRequest() async throws {
        let store = try StoreFixture()
        try store.start()
        let fleet = try await FleetDaemonTests.replicas(store)
        defer { for daemon in fleet where daemon.child.isRunning { _ = daemon.terminate(signal: SIGTERM) } }
        let balancer = try HAProxy(backends: fleet.map(\.port))
        let front = "http://127.0.0.1:\(balancer.port)"
        let steps = ["503", "500", "503", "500", "200-empty", "503"]
        let sequence = #"{"sequence": [\#(steps.map { "\"\($0)\"" }.joined(separator: ", "))]}"#
        let set = try await FleetDaemonTests.get(front + "/__stubd/routes/app/users", ["-X", "PUT", "-d", sequence])
        #expect(set.status == 200)
        var statuses: [Int] = []
        for _ in 0..<30 { statuses.append(try await FleetDaemonTests.get(front + "/api/v1/users").status) }
        #expect(statuses == [503, 500, 503, 500, 200, 503] + Array(repeating: 200, count: 24))
        for daemon in fleet { #expect(try await FleetDaemonTests.count(daemon) == 30) }
        let journal = try await FleetDaemonTests.get(fleet[0].baseURL + "/__stubd/journal?route=app/users").body
        let entries = (try? JSONSerialization.jsonObject(with: Data(journal.utf8)) as? [String: Any])?["requests"] as? [[String: Any]] ?? []
        #expect(entries.prefix(6).compactMap { $0["variant"] as? String } == steps)
        #expect(Set(entries.compactMap { $0["replica"] as? String }) == ["r1", "r2", "r3"], "round robin reached every replica")
    }

    @Test(.requires(.haproxy))
    func aReplicaKilledUnderLoadBehindTheShippedBalancerCostsNoRequest() async throws {
        let store = try StoreFixture()
        try store.start()
        let fleet = try await FleetDaemonTests.replicas(store)
        defer { for daemon in fleet where daemon.child.isRunning { _ = daemon.terminate(signal: SIGTERM) } }
        let balancer = try HAProxy(backends: fleet.map(\.port))
        let url = try #require(URL(string: "http://127.0.0.1:\(balancer.port)/api/v1/users/1"))
        let started = Date()
        let answered = Answered()
        // Four clients, 250 requests each, each answered after 10 ms: the load lasts a few
        // seconds, and requests are in flight on the replica when it dies.
        let load = Task {
            try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        var statuses: [Int] = []
                        for _ in 0..<250 {
                            let status = (try? await HTTPClient.fetch(url, headers: ["X-Stub-Delay": "10"]))?.status ?? 0
                            statuses.append(status)
                            await answered.add()
                        }
                        return statuses
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
        }
        // Killed a tenth of the way in: what it had in flight, and what is sent to it before the
        // health check marks it down, go to the others.
        while await answered.count < 100 { try await Task.sleep(nanoseconds: 5_000_000) }
        let killedAt = Date().timeIntervalSince(started)
        _ = try await OffPool.run { fleet[1].terminate(signal: SIGKILL) }
        let statuses = try await load.value
        let tally = Dictionary(grouping: statuses, by: { $0 }).mapValues(\.count)
        print("killed-replica run: \(tally) in \(Date().timeIntervalSince(started)) s, killed at \(killedAt) s")
        #expect(statuses.count == 1000)
        #expect(tally == [200: 1000], "a replica killed under load cost requests: \(tally)")
    }

    /// Requests answered so far, for the load above.
    actor Answered {
        private(set) var count = 0
        func add() { count += 1 }
    }

    @Test func stateSettingsAreChecked() async throws {
        let stubs = Repository.shippedStubs.path
        let lone = try await Subprocess.run(Repository.stubdBinary, ["serve", "--stubs", stubs, "--port", "0", "--replica", "r1"])
        #expect(lone.exitCode == 2 && lone.stderr.hasPrefix("error: --replica needs --state URL"), "\(lone.stderr)")
        let ca = try await Subprocess.run(Repository.stubdBinary, ["serve", "--stubs", stubs, "--port", "0", "--state-ca", "/etc/hostname"])
        #expect(ca.exitCode == 2 && ca.stderr.hasPrefix("error: --state-ca needs --state URL"), "\(ca.stderr)")
        let http = try await Subprocess.run(Repository.stubdBinary, ["serve", "--stubs", stubs, "--port", "0"],
                                            environment: ["STUBD_STATE": "http://cache:6379", "PATH": "/usr/bin:/bin"])
        #expect(http.exitCode == 2 && http.stderr.hasPrefix("error: STUBD_STATE expects a redis://HOST[:PORT][/DB] URL"), "\(http.stderr)")
    }
}

/// HAProxy in front of replicas with the shipped deploy/haproxy/haproxy.cfg: only its listening
/// address and its servers are changed (and its log, which would fill a pipe nobody reads).
final class HAProxy: @unchecked Sendable {
    // @unchecked: set once in init; the process is ended by deinit.
    let port: Int
    private let process: Spawned
    private let folder: URL

    init(backends: [Int]) throws {
        port = StoreFixture.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-haproxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let shipped = try String(contentsOf: Repository.root.appendingPathComponent("deploy/haproxy/haproxy.cfg"), encoding: .utf8)
        var lines: [String] = []
        for line in shipped.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("log ") || trimmed == "option httplog" { continue }
            if trimmed == "bind :8080" { lines.append("    bind 127.0.0.1:\(port)"); continue }
            if trimmed.hasPrefix("server stubd-") {
                if trimmed.hasPrefix("server stubd-1 ") {
                    lines += backends.enumerated().map { "    server r\($0.offset + 1) 127.0.0.1:\($0.element)" }
                }
                continue
            }
            lines.append(String(line))
        }
        let config = lines.joined(separator: "\n")
        #expect(config.contains("127.0.0.1:\(port)") && config.contains("server r1 "), "the shipped file's bind and servers were found")
        let file = folder.appendingPathComponent("haproxy.cfg")
        try Data(config.utf8).write(to: file)
        process = try Spawned("/usr/sbin/haproxy", ["-db", "-f", file.path])
        let deadline = ContinuousClock.now + .seconds(5)  // monotonic: the wall clock may step
        while ContinuousClock.now < deadline && StoreFixture.send(port, "GET /__stubd/health HTTP/1.0\r\n") == nil { usleep(20_000) }
    }

    deinit {
        kill(process.pid, SIGKILL)
        process.waitForExit()
        try? FileManager.default.removeItem(at: folder)
    }
}
