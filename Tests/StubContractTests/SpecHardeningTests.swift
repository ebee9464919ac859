import Foundation
import StubContract
import StubCore
import StubTestSupport
import StubTesting
import Testing

/// Hostile OpenAPI documents: each is refused at once with its line named, or handled within a
/// bounded cost, and a request built against a hostile schema cannot hold a thread.
@Suite(.timeLimit(.minutes(3))) struct SpecHardeningTests {
    /// A folder per test for its documents, removed when the test ends.
    let folder: TemporaryStubDirectory

    init() throws { folder = try TemporaryStubDirectory([:]) }

    func write(_ text: String) throws -> String {
        let name = "spec-\(UUID().uuidString).yaml"
        try folder.write([name: text])
        return folder.url.appendingPathComponent(name).path
    }

    /// Why the document is refused ("accepted" if it is not).
    func refusal(_ text: String) throws -> String {
        let path = try write(text)
        do {
            _ = try OpenAPIDocument(path: path)
            return "accepted"
        } catch {
            return error.description
        }
    }

    static let head = "openapi: 3.0.3\ninfo: {title: H, version: '1'}\npaths: {}\n"

    @Test func aliasAndMergeBombsAreRefusedWithTheirLine() throws {
        var laughs = SpecHardeningTests.head + "x-a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]\n"
        var previous = "a"
        for name in ["b", "c", "d", "e", "f", "g", "h", "i"] {
            laughs += "x-\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 9).joined(separator: ",") + "]\n"
            previous = name
        }
        let bomb = try refusal(laughs)
        #expect(bomb.contains(":10: aliases expand to more than 1000000 nodes"), "\(bomb)")
        var merges = SpecHardeningTests.head + "x-m0: &m0 {k0: 0}\n"
        for i in 1..<2000 { merges += "x-m\(i): &m\(i) {<<: *m\(i - 1), k\(i): \(i)}\n" }
        let merged = try refusal(merges)
        #expect(merged.contains("merge keys expand to more than"), "\(merged)")
    }

    @Test func deepNestingIsRefusedNotRecursedInto() throws {
        for (text, line) in [(SpecHardeningTests.head + "x-deep: " + String(repeating: "[", count: 30_000) + String(repeating: "]", count: 30_000) + "\n", 4),
                             (SpecHardeningTests.head + "x-deep: " + String(repeating: "{a: ", count: 100_000) + "1" + String(repeating: "}", count: 100_000) + "\n", 4)] {
            let deep = try refusal(text)
            #expect(deep.contains(":\(line): nesting deeper than 512 levels"), "\(deep.prefix(200))")
        }
        let json = try write("{\"openapi\": \"3.0.3\", \"x\": " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}")
        #expect(throws: ContractError.self) { try OpenAPIDocument(path: json) }
    }

    @Test func aCatastrophicPatternOrABranchingSchemaCannotHoldTheServer() async throws {
        let spec = try write("""
        openapi: 3.0.3
        info: { title: H, version: "1" }
        paths:
          /evil:
            post:
              requestBody:
                content:
                  application/json:
                    schema:
                      type: object
                      properties:
                        name: { type: string, pattern: "^(a+)+$" }
                        tree: { $ref: "#/components/schemas/A" }
              responses: { "200": { description: ok } }
        components:
          schemas:
            A: { anyOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/A" }, { type: integer }] }
        """)
        let stubs = try TemporaryStubDirectory(["h/evil/route.json": #"{"method": "POST", "path": "/evil"}"#, "h/evil/200.json": "{}"])
        try await withServer(stubs: stubs.url, configure: { $0.check(against: URL(fileURLWithPath: spec)) }) { server in
            let redos = Data(#"{"name": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!"}"#.utf8)
            let branching = Data(#"{"tree": "x"}"#.utf8)
            // Each is answered (a backtracking matcher or an unbounded check would not return).
            for body in [redos, branching, redos, branching] {
                let answer = try await HTTPClient.fetch(server.url("/evil"), method: "POST", headers: ["Content-Type": "application/json"], body: body)
                #expect(answer.status == 200)
            }
            let problems = server.journal().map { $0.contract?.map(\.problem) ?? [] }
            #expect(problems[0].first?.contains("does not match the pattern") == true, "\(problems)")
            #expect(problems[1].first?.hasPrefix("checking stopped") == true, "\(problems)")
        }
    }

    /// Counts no `Int` holds, negative or fractional (`minLength: 1e19`, `maxLength: -1`): the
    /// import names the responses it cannot make a fitting body for, where it stopped (SIGILL).
    @Test func countsBeyondAnyIntAreNamedNotConverted() async throws {
        let spec = try write("""
        openapi: 3.0.3
        info: { title: H, version: "1" }
        paths:
          /counts:
            get:
              responses:
                "200":
                  description: ok
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [long, short, pattern, list, fraction]
                        properties:
                          long: { type: string, minLength: 1e19 }
                          short: { type: string, maxLength: -1e19 }
                          pattern: { type: string, pattern: "^[a-z]+$", minLength: 1e19, maxLength: -1 }
                          list: { type: array, items: { type: integer }, maxItems: -1e19 }
                          fraction: { type: string, minLength: 2.5 }
                "201":
                  description: many keys
                  content: { application/json: { schema: { type: object, minProperties: 1e19 } } }
        """)
        let stubs = folder.url.appendingPathComponent("Stubs-\(UUID().uuidString)")
        let result = try await Subprocess.run(Repository.stubdBinary, ["import-openapi", spec, "--stubs", stubs.path])
        // Nothing fits, so nothing is written; each response is named with why.
        #expect(result.exitCode == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("skipped GET /counts → 200 (/paths/~1counts/get/responses/200): no body stubd can make fits its schema ($.long: expected at least"), "\(result.stderr)")
        #expect(result.stderr.contains("skipped GET /counts → 201 (/paths/~1counts/get/responses/201): no body stubd can make fits its schema ($: expected at least"), "\(result.stderr)")
    }

    @Test func sigtermStopsTheDaemonWhileHostileRequestsAreBeingChecked() async throws {
        let spec = try write("""
        openapi: 3.0.3
        info: { title: H, version: "1" }
        paths:
          /evil: { post: { requestBody: { content: { application/json: { schema: { $ref: "#/components/schemas/A" } } } }, responses: { "200": { description: ok } } } }
        components:
          schemas:
            A: { anyOf: [{ $ref: "#/components/schemas/A" }, { $ref: "#/components/schemas/A" }, { type: integer }] }
        """)
        let stubs = try TemporaryStubDirectory(["h/evil/route.json": #"{"method": "POST", "path": "/evil"}"#, "h/evil/200.json": "{}"])
        let daemon = try RunningDaemon(arguments: ["serve", "--stubs", stubs.url.path, "--port", "0", "--host", "127.0.0.1", "--log", "off", "--openapi", spec])
        // Clients that keep sending requests whose check branches exponentially, on both cores.
        let senders = (0..<8).map { _ in
            Task.detached {
                while !Task.isCancelled {
                    _ = try? await Curl.run(["-s", "-m", "2", "-X", "POST", "-H", "Content-Type: application/json", "-d", "\"x\"", daemon.baseURL + "/evil"])
                }
            }
        }
        try await Task.sleep(nanoseconds: 500_000_000)
        let stopped = try await OffPool.run { daemon.terminate(signal: SIGTERM) }
        for sender in senders { sender.cancel() }
        // It stops, and cleanly (bench/hostile.py times it).
        #expect(stopped.status == 0)
    }
}
