import Foundation
@testable import StubServer
import StubCore
import StubTestSupport
import StubTesting
import Testing

/// The README's snippets, run as written: the Quick Start's curl lines, every admin `PUT` body in
/// its table (the retry sequence included), and the `route.json` example.
@Suite(.timeLimit(.minutes(3))) struct ReadmeTests {
    static var readme: String { (try? String(contentsOf: Repository.root.appendingPathComponent("README.md"), encoding: .utf8)) ?? "" }

    /// The fenced blocks of the README with the given info string, in order.
    static func blocks(_ language: String) -> [String] {
        var out: [String] = []
        var current: [String]?
        for line in readme.components(separatedBy: "\n") {
            if current == nil, line == "```" + language { current = [] } else if current != nil, line == "```" {
                out.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return out
    }

    @Test func theQuickStartCurlLinesDoWhatTheirCommentsSay() async throws {
        let lines = ReadmeTests.blocks("sh").flatMap { $0.components(separatedBy: "\n") }.filter { $0.hasPrefix("curl ") && $0.contains("localhost:8080") }
        #expect(lines.count >= 7, "the Quick Start block was found")
        try await withServer { server in
            for line in lines {
                let parts = line.components(separatedBy: "# ")
                let command = parts[0].replacingOccurrences(of: "localhost:8080", with: "127.0.0.1:\(server.port)")
                let comment = parts.count > 1 ? parts[1] : ""
                let result = try await Subprocess.run("/bin/sh", ["-c", command])
                if let range = comment.range(of: #"curl: \((\d+)\)"#, options: .regularExpression) {
                    let code = Int32(comment[range].filter(\.isNumber))
                    #expect(result.exitCode == code, "\(line)")
                } else {
                    #expect(result.exitCode == 0, "\(line)")
                    #expect(!result.stdout.isEmpty, "\(line)")
                }
                if comment.contains("404") { #expect(result.stdout.contains("No user with id 999."), "\(line)") }
                if comment.contains("200 with a token") { #expect(result.stdout.contains("token"), "\(line)") }
            }
        }
    }

    @Test func everyAdminPutBodyInTheTableIsAcceptedAndTheRetrySequencePlaysOut() async throws {
        let rows = ReadmeTests.readme.components(separatedBy: "\n").filter { $0.hasPrefix("| `PUT /__stubd/routes/") }
        #expect(rows.count >= 2)
        try await withServer { server in
            for row in rows {
                let route = try #require(row.split(separator: "`")[1].split(separator: " ").last).replacingOccurrences(of: "/__stubd/routes/", with: "")
                let bodies = row.split(separator: "`").map(String.init).filter { $0.hasPrefix("{") }
                #expect(!bodies.isEmpty, "\(row)")
                for body in bodies {
                    let admin = AdminClient(server: server)
                    let put = try await admin.call("PUT", "/routes/\(route)", json: body)
                    #expect(put.status == 200, "\(body): \(put.text)")
                    if body.contains("sequence") {
                        let steps = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: [String]])["sequence"] ?? []
                        let path = try #require(server.catalog.route(id: route)?.route.fullPath)
                        var statuses: [Int] = []
                        for _ in steps { statuses.append(try await HTTPClient.fetch(server.url(path)).status) }
                        #expect(statuses == steps.map { Int($0.prefix(3)) ?? 0 }, "\(body)")
                    }
                    _ = try await admin.call("DELETE", "/routes/\(route)")
                }
            }
        }
    }

    @Test func theRouteJSONExampleLoads() throws {
        let example = try #require(ReadmeTests.blocks("json").first { $0.contains("\"path\": \"/users/{id}\"") })
        let stubs = try TemporaryStubDirectory([
            "app/_service.json": #"{"basePath": "/api/v1", "errorEnvelope": {"error": {"title": "{{title}}", "message": "{{message}}"}}}"#,
            "app/user/route.json": example,
            "app/user/200.json": "{}",
            "app/user/200-user-2.json": "{}",
        ])
        let catalog = try StubLoader.load(directory: stubs.url.path).get()
        #expect(catalog.routes.first?.variants.map(\.name).contains("503-slow") == true)
    }

    /// What a module's targets link, as Package.swift says (libmicrohttpd for CMicroHTTPD).
    static func links(of target: String) throws -> Set<String> {
        let package = try String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let declaration = try #require(package.range(of: ".target(name: \"\(target)\", dependencies: ["), "\(target) in Package.swift")
        let list = package[declaration.upperBound...].prefix { $0 != "]" }
        return Set(list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
            .map { $0 == "CMicroHTTPD" ? "libmicrohttpd" : $0 })
    }

    /// The names in "links A, B, C and D" up to the next ";" or ")".
    static func named(after text: Substring) -> Set<String> {
        let list = text.prefix { $0 != ";" && $0 != ")" }.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: " and ", with: ", ")
        return Set(list.split(separator: ",").map { $0.split(separator: " ").joined(separator: " ") }.filter { !$0.isEmpty })
    }

    @Test func whatTheReadmeSaysAModuleLinksIsWhatPackageSwiftLinks() throws {
        let readme = ReadmeTests.readme
        let product = try #require(readme.range(of: "The `StubServer` product links"))
        #expect(ReadmeTests.named(after: readme[product.upperBound...]) == (try ReadmeTests.links(of: "StubServer")))
        for target in ["StubServer", "StubTransport"] {
            let line = try #require(readme.range(of: "Sources/\(target) "), "\(target) in the code layout")
            let links = try #require(readme[line.upperBound...].range(of: "(links"))
            #expect(ReadmeTests.named(after: readme[links.upperBound...]) == (try ReadmeTests.links(of: target)), "\(target)")
        }
    }
}
