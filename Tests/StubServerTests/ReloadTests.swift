import Foundation
@testable import StubServer
import StubTestSupport
import StubTesting
import Testing

@Suite(.timeLimit(.minutes(3))) struct ReloadTests {
    static let base = [
        "svc/hello/route.json": #"{"method": "GET", "path": "/hello"}"#,
        "svc/hello/200.json": #"{"greeting": "hello"}"#,
    ]

    /// The body at `path`, fetched by curl in its own process with a short timeout, so one slow
    /// fetch cannot use up the whole wait.
    func served(_ server: StubServer, _ path: String) async throws -> String {
        try await Curl.run(["-s", "-m", "1", server.url(path).absoluteString]).stdout
    }

    @Test func aBadEditKeepsTheLastGoodStubsAndHealthSaysDegraded() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url) { server in
            let admin = AdminClient(server: server)
            try stubs.write(["svc/hello/200.json": #"{"greeting": "hi"}"#])
            #expect(try await admin.call("POST", "/reload").status == 200)
            #expect(try await HTTPClient.fetch(server.url("/hello")).text.contains("hi"))
            try stubs.write(["svc/hello/route.json": #"{"method": "GET", "path": "/hello", "defualt": "200"}"#])
            let failed = try await admin.object("POST", "/reload")
            #expect(failed["status"] as? String == "degraded")
            #expect((failed["errors"] as? [String])?.first?.hasPrefix("svc/hello/route.json: defualt: unknown key") == true)
            #expect(try await HTTPClient.fetch(server.url("/hello")).text.contains("hi"), "still serving the last good stubs")
            let health = try await admin.object("GET", "/health")
            #expect(health["status"] as? String == "degraded")
            #expect((health["errors"] as? [String])?.count == 1)
            try stubs.write(ReloadTests.base)
            #expect(try await admin.call("POST", "/reload").status == 200)
            #expect(try await admin.object("GET", "/health")["status"] as? String == "ok")
        }
    }

    @Test func watcherPicksUpEditsRenamesNewAndDeletedRoutes() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url, configure: { $0.watch = true }) { server in
            // An editor that saves by writing a temporary file and renaming it over the original.
            let temporary = stubs.url.appendingPathComponent("svc/hello/.200.json.swp")
            try Data(#"{"greeting": "renamed"}"#.utf8).write(to: temporary)
            _ = rename(temporary.path, stubs.url.appendingPathComponent("svc/hello/200.json").path)
            let seen = try await eventually { try await served(server, "/hello").contains("renamed") }
            let loaded = String(decoding: server.catalog.route(id: "svc/hello")?.route.variants.first?.body ?? [], as: UTF8.self)
            #expect(seen, "catalog now holds: \(loaded)")
            try stubs.write(["svc/bye/route.json": #"{"method": "GET", "path": "/bye"}"#, "svc/bye/200.json": "{}"])
            #expect(try await eventually { try await served(server, "/bye") == "{}" })
            try stubs.remove("svc/bye")
            #expect(try await eventually { try await served(server, "/bye").contains("no stub matches") })
            try stubs.write(["svc/hello/200.json": "{ broken"])
            #expect(try await eventually { server.health.problems.count == 1 })
            #expect(try await HTTPClient.fetch(server.url("/hello")).text.contains("renamed"))
        }
    }

    @Test func inFlightRequestsFinishWithTheStubsTheyStartedWith() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url) { server in
            // A long delay, so the window in which to reload is wide even when other tests keep
            // this process's threads busy.
            let slow = Task { try await Curl.run(["-s", server.url("/hello?__delay=3000").absoluteString]) }
            // Reload only once the request is in the server, held by its delay.
            #expect(try await eventually { server.bridge.suspensions.count == 1 })
            try stubs.write(["svc/hello/200.json": #"{"greeting": "new"}"#])
            try server.reload()
            let old = try await slow.value
            #expect(old.stdout.contains("hello"))
            #expect(try await HTTPClient.fetch(server.url("/hello")).text.contains("new"))
        }
    }
}

/// Link loops in a served tree: the daemon starts, reloads and stops as if they were not there.
@Suite(.timeLimit(.minutes(1))) struct LinkLoopTests {
    @Test func hiddenSelfLinksDoNotStallStartReloadOrStop() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        for i in 0..<3 { #expect(symlink(".", stubs.url.appendingPathComponent(".self\(i)").path) == 0) }
        let started = monotonicMs()
        try await withServer(stubs: stubs.url, configure: { $0.watch = true }) { server in
            #expect(monotonicMs() - started < 5000, "start took \(monotonicMs() - started) ms")
            // Links added while serving, deeper in the tree.
            for i in 0..<3 { #expect(symlink("..", stubs.url.appendingPathComponent("svc/.up\(i)").path) == 0) }
            try stubs.write(["svc/hello/200.json": #"{"greeting": "after links"}"#])
            #expect(try await eventually { try await HTTPClient.fetch(server.url("/hello")).text.contains("after links") })
            // A visible loop is a problem: the last good stubs stay and health says degraded.
            #expect(symlink(".", stubs.url.appendingPathComponent("loop").path) == 0)
            try stubs.write(["svc/hello/200.json": #"{"greeting": "ignored"}"#])
            #expect(try await eventually { server.health.problems.first?.description.hasPrefix("loop: leads to a folder already read") == true })
            #expect(try await HTTPClient.fetch(server.url("/hello")).text.contains("after links"))
        }
    }
}

/// The stub directory itself deleted, recreated, renamed or replaced while serving, and special
/// files put where body files go.
@Suite(.timeLimit(.minutes(3))) struct ReloadRecoveryTests {
    let reload = ReloadTests()

    @Test func reloadRecoversAfterTheDirectoryIsDeletedAndRecreated() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url, configure: { $0.watch = true }) { server in
            try FileManager.default.removeItem(at: stubs.url)
            #expect(try await eventually { server.health.problems.count == 1 })
            #expect(try await reload.served(server, "/hello").contains("hello"), "the last good stubs are still served")
            try FileManager.default.createDirectory(at: stubs.url, withIntermediateDirectories: true)
            try stubs.write(["svc/hello/route.json": #"{"method": "GET", "path": "/hello"}"#, "svc/hello/200.json": #"{"greeting": "back"}"#])
            #expect(try await eventually(3) { try await reload.served(server, "/hello").contains("back") })
            #expect(server.health.problems.isEmpty)
            // Later edits are seen too: the new folder is watched.
            try stubs.write(["svc/hello/200.json": #"{"greeting": "edited"}"#])
            #expect(try await eventually(3) { try await reload.served(server, "/hello").contains("edited") })
        }
    }

    @Test func aManualReloadReadsARecreatedDirectory() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url, configure: { $0.watch = false }) { server in
            let admin = AdminClient(server: server)
            try FileManager.default.removeItem(at: stubs.url)
            #expect(try await admin.object("POST", "/reload")["status"] as? String == "degraded")
            try FileManager.default.createDirectory(at: stubs.url, withIntermediateDirectories: true)
            try stubs.write(["svc/hello/route.json": #"{"method": "GET", "path": "/hello"}"#, "svc/hello/200.json": #"{"greeting": "manual"}"#])
            #expect(try await admin.call("POST", "/reload").status == 200)
            #expect(try await reload.served(server, "/hello").contains("manual"))
        }
    }

    @Test func reloadFollowsTheDirectoryWhenAnotherIsRenamedIntoItsPlace() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url, configure: { $0.watch = true }) { server in
            let next = stubs.url.deletingLastPathComponent().appendingPathComponent("next-\(UUID().uuidString)")
            let old = stubs.url.deletingLastPathComponent().appendingPathComponent("old-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: next.appendingPathComponent("svc/hello"), withIntermediateDirectories: true)
            try Data(#"{"method": "GET", "path": "/hello"}"#.utf8).write(to: next.appendingPathComponent("svc/hello/route.json"))
            try Data(#"{"greeting": "replaced"}"#.utf8).write(to: next.appendingPathComponent("svc/hello/200.json"))
            _ = rename(stubs.url.path, old.path)
            _ = rename(next.path, stubs.url.path)
            #expect(try await eventually(3) { try await reload.served(server, "/hello").contains("replaced") })
            // Edits to the folder moved away are not what is served.
            try Data(#"{"greeting": "stale"}"#.utf8).write(to: old.appendingPathComponent("svc/hello/200.json"))
            try stubs.write(["svc/hello/200.json": #"{"greeting": "current"}"#])
            #expect(try await eventually(3) { try await reload.served(server, "/hello").contains("current") })
            try? FileManager.default.removeItem(at: old)
        }
    }

    @Test func aFIFOOrADeviceWhereABodyGoesIsRefusedByName() async throws {
        let stubs = try TemporaryStubDirectory(ReloadTests.base)
        try await withServer(stubs: stubs.url, configure: { $0.watch = true }) { server in
            #expect(mkfifo(stubs.url.appendingPathComponent("svc/hello/500.json").path, 0o644) == 0)
            #expect(try await eventually { server.health.problems.count == 1 })
            #expect(server.health.problems.first?.description.contains("svc/hello/500.json: is a FIFO, not a regular file") == true, "\(server.health.problems)")
            #expect(try await reload.served(server, "/hello").contains("hello"))
            try FileManager.default.removeItem(at: stubs.url.appendingPathComponent("svc/hello/500.json"))
            try FileManager.default.createSymbolicLink(atPath: stubs.url.appendingPathComponent("svc/hello/503.json").path, withDestinationPath: "/dev/zero")
            #expect(try await eventually { server.health.problems.first?.description.contains("503.json: is a character device") == true }, "\(server.health.problems)")
        }
    }
}
