import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// Runs the real `stubd` binary as users and containers do.
@Suite(.timeLimit(.minutes(3))) struct CLITests {
    func stubd(_ arguments: [String], environment: [String: String]? = nil) async throws -> Curl.Result {
        try await Subprocess.run(Repository.stubdBinary, arguments, environment: environment)
    }

    @Test func checkPassesTheShippedStubs() async throws {
        let result = try await stubd(["check", Repository.shippedStubs.path])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("OK, 19 routes"))
    }

    @Test func checkPrintsEveryProblemWithFileAndPathAndExits1() async throws {
        let stubs = try TemporaryStubDirectory([
            "app/_service.json": #"{"basePath": "/api"}"#,
            "app/a/route.json": #"{"method": "GET", "path": "/users", "hedaers": {}}"#, "app/a/200.json": "{}",
            "app/b/route.json": #"{"method": "GET", "path": "/items"}"#, "app/b/200.json": "{\"id\": 1,}",
            "app/c/route.json": #"{"method": "GET", "path": "/users"}"#, "app/c/200.json": "{}",
        ])
        let result = try await stubd(["check", stubs.url.path])
        #expect(result.exitCode == 1)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(result.stdout)")
        #expect(lines.contains { $0.hasPrefix("app/a/route.json: hedaers: unknown key; did you mean \"headers\"?") })
        #expect(lines.contains("app/b/200.json:1:10: not valid JSON: expected a quoted key, found '}'"))
        #expect(lines.contains { $0.contains("app/c/route.json") && $0.contains("defined twice: in app/a/ and in app/c/") })
        let serve = try await stubd(["serve", "--stubs", stubs.url.path, "--port", "0"])
        #expect(serve.exitCode == 1)
        #expect(serve.stderr.contains("app/b/200.json:1:10"))
    }

    @Test func checkWarnsAboutLinksOutOfTheTreeAndStrictFailsOnThem() async throws {
        let stubs = try TemporaryStubDirectory(["svc/hello/route.json": #"{"method": "GET", "path": "/hello"}"#, "svc/hello/200.json": "{}"])
        let outside = try TemporaryStubDirectory(["bye/route.json": #"{"method": "GET", "path": "/bye"}"#, "bye/200.json": "{}"])
        #expect(symlink(outside.url.appendingPathComponent("bye").path, stubs.url.appendingPathComponent("svc/bye").path) == 0)
        let relaxed = try await stubd(["check", stubs.url.path])
        #expect(relaxed.exitCode == 0)
        #expect(relaxed.stdout.contains("OK, 2 routes"))
        #expect(relaxed.stderr.hasPrefix("warning: svc/bye: links outside the stub directory, to /"), "\(relaxed.stderr)")
        let strict = try await stubd(["check", "--strict", stubs.url.path])
        #expect(strict.exitCode == 1)
        #expect(strict.stderr.contains("1 warning(s), failing because of --strict"))
    }

    @Test func routesPrintsATable() async throws {
        let result = try await stubd(["routes", Repository.shippedStubs.path])
        #expect(result.exitCode == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix("SERVICE") == true)
        #expect(lines.contains { $0.contains("GET") && $0.contains("/api/v1/users/{id}") && $0.contains("200,200-user-2,200-user-3,404") })
    }

    @Test(arguments: [["--port", "99999"], ["--log", "loud"], ["--frobnicate"], ["serve", "extra"], ["launch"], ["--port"],
                      ["--delay", "99999999999999999m"], ["--hang-cap", "2d"]])
    func badArgumentsExit2WithUsage(arguments: [String]) async throws {
        let result = try await stubd(arguments)
        #expect(result.exitCode == 2)
        #expect(result.stderr.hasPrefix("error: "))
        #expect(result.stderr.contains("USAGE: stubd"))
    }

    @Test func versionAndHelp() async throws {
        #expect(try await stubd(["--version"]).stdout.hasPrefix("stubd "))
        for command in [["--help"], ["serve", "--help"], ["check", "--help"], ["routes", "--help"]] {
            let result = try await stubd(command)
            #expect(result.exitCode == 0)
            #expect(result.stdout.contains("USAGE: stubd"))
        }
    }

    @Test func servesOnAnEphemeralPortAndStopsCleanlyOnSIGTERM() async throws {
        let daemon = try await OffPool.run { try RunningDaemon(arguments: ["--stubs", Repository.shippedStubs.path, "--port", "0", "--log", "json"]) }
        let got = try await Curl.run(["-s", daemon.baseURL + "/api/v1/users/1"])
        #expect(got.stdout.contains("\"id\": 1"))
        let busy = try await stubd(["--stubs", Repository.shippedStubs.path, "--port", String(daemon.port)])
        #expect(busy.exitCode == 1)
        #expect(busy.stderr.contains("already in use"))
        let exit = try await OffPool.run { daemon.terminate(signal: SIGTERM) }
        #expect(exit.status == 0)
        #expect(exit.stdout.contains(#""route":"app/user""#), "json access log: \(exit.stdout)")
    }

    @Test func warnsWhenTheAdminAPIIsOpenToTheNetwork() async throws {
        let open = try await OffPool.run { try RunningDaemon(arguments: ["--stubs", Repository.shippedStubs.path, "--host", "0.0.0.0", "--port", "0"]) }
        let openExit = try await OffPool.run { open.terminate(signal: SIGTERM) }
        #expect(openExit.status == 0)
        #expect(open.standardError.contains("warning: the admin API on 0.0.0.0 is open to the network"))
        let guarded = try await OffPool.run {
            try RunningDaemon(arguments: ["--stubs", Repository.shippedStubs.path, "--host", "0.0.0.0", "--port", "0", "--admin-token", "t"])
        }
        _ = try await OffPool.run { guarded.terminate(signal: SIGTERM) }
        #expect(!guarded.standardError.contains("warning"))
    }

    @Test func servesOnIPv6Loopback() async throws {
        let server = try StubServer(stubsAt: Repository.shippedStubs, host: "::1", port: 0)
        defer { server.stop() }
        #expect(server.baseURL.absoluteString.hasPrefix("http://[::1]:"))
        let got = try await Curl.run(["-s", "-g", server.url("/api/v1/users/2").absoluteString])
        #expect(got.stdout.contains("\"id\": 2"))
    }

    @Test func environmentVariablesConfigureTheServer() async throws {
        let daemon = try await OffPool.run { try RunningDaemon(arguments: [], environment: ["STUBD_STUBS": Repository.shippedStubs.path, "STUBD_PORT": "0", "STUBD_HOST": "127.0.0.1"]) }
        #expect(try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", daemon.baseURL + "/api/v2/items"]).stdout == "200")
        let exit = try await OffPool.run { daemon.terminate(signal: SIGINT) }
        #expect(exit.status == 0)
    }

    /// docs/moya.md's converter: a folder of sampleData files becomes route folders `check` accepts
    /// and `serve` answers byte for byte.
    @Test func sampleDataFilesBecomeRouteFolders() async throws {
        let samples = try TemporaryStubDirectory(["userProfile.json": #"{"id": 7, "name": "Jane"}"#, "feed.json": "[]", "notes.txt": "x"])
        let stubs = try TemporaryStubDirectory([:])
        let script = Repository.root.appendingPathComponent("scripts/sampledata-to-stubs.sh").path
        let converted = try await Subprocess.run("/bin/sh", [script, samples.url.path, stubs.url.path, "github", "/api"])
        #expect(converted.exitCode == 0, "\(converted.stderr)")
        #expect(converted.stdout.contains("2 route(s) written"))
        let check = try await stubd(["check", stubs.url.path])
        #expect(check.exitCode == 0, "\(check.stdout)")
        let server = try StubServer(stubsAt: stubs.url, port: 0)
        defer { server.stop() }
        let body = try await Curl.run(["-s", server.baseURL.absoluteString + "/api/userProfile"])
        #expect(body.stdout == #"{"id": 7, "name": "Jane"}"#)
        let again = try await Subprocess.run("/bin/sh", [script, samples.url.path, stubs.url.path, "github"])
        #expect(again.stdout.contains("0 route(s) written"), "existing folders are left alone")
    }

    @Test func maxBodyFromTheFlagAndTheEnvironment() async throws {
        let environment = ["STUBD_STUBS": Repository.shippedStubs.path, "STUBD_PORT": "0", "STUBD_MAX_BODY": "1k"]
        for arguments in [[], ["--max-body", "2KiB"]] {
            let daemon = try await OffPool.run { try RunningDaemon(arguments: arguments, environment: environment) }
            let limit = arguments.isEmpty ? 1024 : 2048
            let over = try await Curl.run(["-s", "--data-binary", String(repeating: "x", count: limit + 1), daemon.baseURL + "/api/chat.postMessage"])
            #expect(over.stdout.contains("\"limit\": \"\(limit) bytes\""), "\(arguments): \(over.stdout)")
            let within = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", "--data-binary", String(repeating: "x", count: limit),
                                             daemon.baseURL + "/api/chat.postMessage"])
            #expect(within.stdout == "200")
            _ = try await OffPool.run { daemon.terminate(signal: SIGINT) }
        }
        let bad = try await stubd(["serve", "--max-body", "lots"])
        #expect(bad.exitCode == 2)
        #expect(bad.stderr.contains("--max-body expects a size"))
    }
}
