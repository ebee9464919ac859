import Foundation
import StubCapture
import StubCore
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// `stubd import-har` on captures shaped like Proxyman's, Chrome's and Charles's: the tree it
/// writes, that it loads, that serving it gives back each captured body, and that no secret
/// reaches a file.
@Suite(.timeLimit(.minutes(3))) struct HARImportTests {
    /// Writes `har` to a file, imports it with the real binary into a fresh folder.
    func importHAR(_ har: String, _ extra: [String] = []) async throws -> (result: Curl.Result, stubs: URL, har: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-har-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent("capture.har")
        try Data(har.utf8).write(to: file)
        let stubs = dir.appendingPathComponent("Stubs")
        let result = try await Subprocess.run(Repository.stubdBinary, ["import-har", file.path, "--stubs", stubs.path] + extra)
        return (result, stubs, file)
    }

    func tree(_ root: URL) -> [String] {
        let base = root.path + "/"
        let walker = FileManager.default.enumerator(atPath: root.path)
        var files: [String] = []
        while let next = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: base + next, isDirectory: &isDirectory), !isDirectory.boolValue { files.append(next) }
        }
        return files.sorted()
    }

    /// Serves `stubs` and checks that each captured API call gets its captured status and body.
    func expectServedAsCaptured(_ stubs: URL, har: URL) async throws {
        let captured = try HARReader.read(Array(try Data(contentsOf: har)), file: har.path).exchanges
        try await withServer(stubs: stubs) { server in
            for exchange in captured {
                let query = exchange.query.isEmpty ? "" : "?" + exchange.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                let got = try await HTTPClient.fetch(server.url(exchange.path + query), method: exchange.method)
                #expect(got.status == exchange.status, "\(exchange.method) \(exchange.path)\(query)")
                if let want = try? JSONParser.parse(exchange.responseBody), !exchange.responseBody.isEmpty {
                    #expect(try JSONParser.parse(Array(got.body)) == want, "\(exchange.path): \(got.text)")
                } else {
                    #expect(Array(got.body) == exchange.responseBody, "\(exchange.path)")
                }
            }
        }
    }

    @Test func proxymanCaptureBecomesTemplatedRoutes() async throws {
        let (result, stubs, har) = try await importHAR(HARFixtures.proxyman)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(tree(stubs) == [
            "api.example.com/_service.json",
            "api.example.com/delete-users-2/route.json",
            "api.example.com/get-users-id/200-2.json", "api.example.com/get-users-id/200.json",
            "api.example.com/get-users-id/404.json", "api.example.com/get-users-id/route.json",
            "api.example.com/get-users/200-2.json", "api.example.com/get-users/200.json", "api.example.com/get-users/route.json",
        ])
        #expect(result.stdout.contains("Skipped: 1 CONNECT, 1 image"))
        #expect(result.stdout.contains("api.example.com/get-users-id  GET /api/v1/users/{id}  variants: 200, 200-2, 404"))
        #expect(result.stdout.contains("OK, 3 routes"), "\(result.stdout)")
        let service = try String(contentsOf: stubs.appendingPathComponent("api.example.com/_service.json"), encoding: .utf8)
        #expect(service.contains("\"basePath\": \"/api/v1\""))
        // Numbers keep their exact text; the volatile headers are gone, the useful ones kept.
        let user = try String(contentsOf: stubs.appendingPathComponent("api.example.com/get-users-id/200.json"), encoding: .utf8)
        #expect(user == "{\n  \"id\": 1,\n  \"name\": \"Jane\",\n  \"followers\": 12345678901234567890,\n  \"ratio\": 1.10\n}\n")
        let route = try String(contentsOf: stubs.appendingPathComponent("api.example.com/get-users-id/route.json"), encoding: .utf8)
        #expect(route.contains("\"ETag\": \"\\\"u1\\\"\"") && !route.contains("nginx") && !route.contains("Date"))
        let list = try String(contentsOf: stubs.appendingPathComponent("api.example.com/get-users/route.json"), encoding: .utf8)
        #expect(list.contains("\"page\": \"2\"") && list.contains("\"X-RateLimit-Remaining\": \"41\"") && list.contains("rel=\\\"next\\\""))
        try await expectServedAsCaptured(stubs, har: har)
    }

    /// Ids with a file extension (Twilio's `{Sid}.json`) become a parameter inside the segment.
    @Test func idsWithAnExtensionBecomeParametersInsideTheSegment() async throws {
        func entry(_ path: String, _ body: String) -> String {
            #"{"request": {"method": "GET", "url": "https://api.twilio.com/2010-04-01\#(path)", "headers": [], "queryString": []},"#
                + #" "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}],"#
                + #" "content": {"mimeType": "application/json", "text": "\#(body)"}}}"#
        }
        let sids = ["AC0123456789abcdef0123456789abcdef", "ACfedcba9876543210fedcba9876543210"]
        let entries = [entry("/Accounts/\(sids[0]).json", #"{\"sid\":\"\#(sids[0])\"}"#), entry("/Accounts/\(sids[1]).json", #"{\"sid\":\"\#(sids[1])\"}"#),
                       entry("/Accounts/\(sids[0])/Calls/17.json", #"{\"n\":17}"#), entry("/Accounts/\(sids[0])/Calls/18.json", #"{\"n\":18}"#),
                       entry("/Accounts.json", "[]")]
        let (result, stubs, har) = try await importHAR(#"{"log": {"version": "1.2", "entries": [\#(entries.joined(separator: ","))]}}"#)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("get-Accounts-id.json  GET /2010-04-01/Accounts/{id}.json  variants: 200, 200-2"), "\(result.stdout)")
        // One account's calls: its sid took one value, so it stays literal.
        #expect(result.stdout.contains("GET /2010-04-01/Accounts/\(sids[0])/Calls/{id}.json  variants: 200, 200-2"), "\(result.stdout)")
        let route = try String(contentsOf: stubs.appendingPathComponent("api.twilio.com/get-Accounts-id.json/route.json"), encoding: .utf8)
        #expect(route.contains(#""id": "\#(sids[1])""#), "\(route)")
        try await expectServedAsCaptured(stubs, har: har)
    }

    @Test func chromeCaptureWithBase64BodiesAndLiteralPaths() async throws {
        let (result, stubs, har) = try await importHAR(HARFixtures.chrome, ["--no-templates"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Skipped: 1 font"))
        #expect(tree(stubs) == [
            "shop.test/_service.json",
            "shop.test/get-health/200.txt", "shop.test/get-health/route.json",
            "shop.test/get-orders-5f1c9a2b7e4d3c2b1a0f9e8d/200.json", "shop.test/get-orders-5f1c9a2b7e4d3c2b1a0f9e8d/route.json",
            "shop.test/get-orders-6a2d0b3c8f5e4d3c2b1a0f9e/200.json", "shop.test/get-orders-6a2d0b3c8f5e4d3c2b1a0f9e/route.json",
            "shop.test/get-receipts-1.pdf/200.bin", "shop.test/get-receipts-1.pdf/route.json",
        ])
        let order = try String(contentsOf: stubs.appendingPathComponent("shop.test/get-orders-5f1c9a2b7e4d3c2b1a0f9e8d/route.json"), encoding: .utf8)
        #expect(order.contains("\"Content-Type\": \"application/vnd.api+json\"") && order.contains("\"cache-control\": \"private, max-age=60\""))
        try await expectServedAsCaptured(stubs, har: har)
        // With templates the two orders are one route, chosen by id.
        let (templated, stubs2, _) = try await importHAR(HARFixtures.chrome)
        #expect(templated.stdout.contains("shop.test/get-orders-id  GET /v2/orders/{id}  variants: 200, 200-2"), "\(templated.stdout)")
        #expect(!FileManager.default.fileExists(atPath: stubs2.appendingPathComponent("shop.test/get-orders-5f1c9a2b7e4d3c2b1a0f9e8d").path))
    }

    @Test func repeatedRequestsBecomeASequenceReadyList() async throws {
        let (result, stubs, _) = try await importHAR(HARFixtures.repeated)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(tree(stubs) == ["localhost-9000/_service.json", "localhost-9000/get-status/200.json", "localhost-9000/get-status/503.json", "localhost-9000/get-status/route.json"])
        let route = try String(contentsOf: stubs.appendingPathComponent("localhost-9000/get-status/route.json"), encoding: .utf8)
        #expect(route.contains("in this order: 503, 503, 200. Replay them with PUT /__stubd/routes/localhost-9000/get-status {\\\"sequence\\\": [\\\"503\\\", \\\"503\\\", \\\"200\\\"]}"), "\(route)")
        #expect(route.contains("\"default\": \"200\"") && route.contains("\"Retry-After\": \"1\""))
        try await withServer(stubs: stubs) { server in
            let put = try await HTTPClient.fetch(server.url("/__stubd/routes/localhost-9000/get-status"), method: "PUT",
                                                 body: Data(#"{"sequence": ["503", "503", "200"]}"#.utf8))
            #expect(put.status == 200)
            var statuses: [Int] = []
            for _ in 0..<3 { statuses.append(try await HTTPClient.fetch(server.url("/status")).status) }
            #expect(statuses == [503, 503, 200])
        }
    }

    @Test func secretsNeverReachTheFiles() async throws {
        let (result, stubs, _) = try await importHAR(HARFixtures.secrets, ["--redact", "email"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        var everything = ""
        for file in tree(stubs) { everything += try String(contentsOf: stubs.appendingPathComponent(file), encoding: .utf8) }
        for secret in HARFixtures.secretStrings { #expect(!everything.contains(secret), "\(secret) was written") }
        #expect(!everything.contains("jane@example.com"), "--redact email")
        #expect(everything.contains("\"access_token\": \"REDACTED\"") && everything.contains("\"token_type\": \"bearer\""))
        #expect(everything.contains("done?token=REDACTED"))
        for line in ["request header Authorization: 1 value", "request header Cookie: 1 value", "request header X-API-Key: 1 value",
                     "query api_key: 1 value", "request body field password: 1 value", "request body field client_secret: 1 value",
                     "response body field access_token: 1 value", "response body field refresh_token: 1 value",
                     "response body field email: 1 value", "response header Set-Cookie: 1 value"] {
            #expect(result.stdout.contains(line), "report lacks \(line):\n\(result.stdout)")
        }
        // --keep puts one back on purpose.
        let (kept, keptStubs, _) = try await importHAR(HARFixtures.secrets, ["--keep", "refresh_token"])
        #expect(kept.exitCode == 0)
        let body = try String(contentsOf: keptStubs.appendingPathComponent("auth.example.com/post-token/200.json"), encoding: .utf8)
        #expect(body.contains("rt_fedcba0987654321") && !body.contains("at_1234567890abcdef"))
    }

    @Test func existingFilesAreKeptUnlessOverwriteAndBadHARNamesThePlace() async throws {
        let (first, stubs, har) = try await importHAR(HARFixtures.repeated)
        #expect(first.exitCode == 0)
        let again = try await Subprocess.run(Repository.stubdBinary, ["import-har", har.path, "--stubs", stubs.path])
        #expect(again.exitCode == 1 && again.stderr.contains("localhost-9000/_service.json: already exists; pass --overwrite to replace it"), "\(again.stderr)")
        let forced = try await Subprocess.run(Repository.stubdBinary, ["import-har", har.path, "--stubs", stubs.path, "--overwrite"])
        #expect(forced.exitCode == 0, "\(forced.stderr)")
        let (bad, _, badFile) = try await importHAR(#"{"log": {"entries": [{"request": {"method": "GET", "url": "https://x.test/a"}, "response": {"status": "200"}}]}}"#)
        #expect(bad.exitCode == 1)
        #expect(bad.stderr == "stubd: \(badFile.path): log.entries[0].response.status: expected a whole number, found a string\n")
    }

    @Test func graphQLTrafficBecomesOneRoutePerOperation() async throws {
        let (result, stubs, _) = try await importHAR(HARFixtures.graphQL)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(tree(stubs) == [
            "api.example.com/GetUser/200-2.json", "api.example.com/GetUser/200.json", "api.example.com/GetUser/operation.graphql",
            "api.example.com/GetUser/route.json", "api.example.com/Login/200.json", "api.example.com/Login/operation.graphql",
            "api.example.com/Login/route.json", "api.example.com/_service.json", "api.example.com/get-health/200.json",
            "api.example.com/get-health/route.json",
        ], "\(tree(stubs))")
        #expect(result.stdout.contains("api.example.com/GetUser  QUERY /graphql#GetUser  variants: 200, 200-2"), "\(result.stdout)")
        var everything = ""
        for file in tree(stubs) { everything += try String(contentsOf: stubs.appendingPathComponent(file), encoding: .utf8) }
        for secret in ["hunter2-pw", "gql-s3cr3t-t0ken", "tok-9f8e7d"] {
            #expect(!everything.contains(secret), "\(secret) was written")
        }
        let route = try String(contentsOf: stubs.appendingPathComponent("api.example.com/GetUser/route.json"), encoding: .utf8)
        #expect(route.contains("\"operation\": \"GetUser\"") && route.contains("\"variables\": {"), "\(route)")
        let check = try await Subprocess.run(Repository.stubdBinary, ["check", stubs.path])
        #expect(check.exitCode == 0, "\(check.stdout)\(check.stderr)")
        try await withServer(stubs: stubs) { server in
            for (id, name) in [("1", "Jane"), ("2", "John")] {
                let got = try await HTTPClient.fetch(server.url("/graphql"), method: "POST", headers: ["Content-Type": "application/json"],
                                                     body: Data(#"{"operationName": "GetUser", "variables": {"id": "\#(id)"}}"#.utf8))
                #expect(got.text.contains(name), "\(got.text)")
            }
            let health = try await HTTPClient.fetch(server.url("/health"))
            #expect(health.status == 200)
        }
    }
}

/// Real captures: encoded query values, unusual methods, JSON under a text media type, encoded
/// paths, and imports that fail.
@Suite(.timeLimit(.minutes(3))) struct HARRealWorldTests {
    let helper = HARImportTests()

    @Test func encodedQueriesAndPathsAreDecodedAndServedAsCaptured() async throws {
        let (result, stubs, _) = try await helper.importHAR(HARFixtures.realWorld)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Skipped: 1 method PURGE"), "\(result.stdout)")
        let route = try String(contentsOf: stubs.appendingPathComponent("api.example.com/get-search/route.json"), encoding: .utf8)
        #expect(route.contains(#""q": "café au lait""#), "\(route)")
        try await withServer(stubs: stubs) { server in
            let cafe = try await HTTPClient.fetch(server.url("/v1/search?q=caf%C3%A9%20au%20lait&sort=new"))
            let tea = try await HTTPClient.fetch(server.url("/v1/search?q=tea&sort=new"))
            let place = try await HTTPClient.fetch(server.url("/v1/places/S%C3%A3o%20Paulo"))
            #expect(cafe.text.contains("cafe au lait") && tea.text.contains("green tea") && place.text.contains("Paulo"), "\(cafe.text) \(tea.text) \(place.text)")
        }
    }

    @Test func aJSONBodyUnderATextTypeIsScannedForSecrets() async throws {
        let (result, stubs, _) = try await helper.importHAR(HARFixtures.realWorld)
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("response body field access_token: 1 value"), "\(result.stdout)")
        for file in helper.tree(stubs) {
            let text = try String(contentsOf: stubs.appendingPathComponent(file), encoding: .utf8)
            #expect(!text.contains("tok_live_4f9a8b7c6d5e"), "\(file) holds the token")
        }
        // Served as the API sent it: text/plain, the token redacted.
        try await withServer(stubs: stubs) { server in
            let token = try await HTTPClient.fetch(server.url("/v1/oauth/token"), method: "POST")
            #expect(token.header("Content-Type")?.hasPrefix("text/plain") == true && token.text.contains("REDACTED"), "\(token.text)")
        }
    }

    @Test func aFailedImportWritesNothingAndServiceNamesStayInside() async throws {
        let (first, stubs, har) = try await helper.importHAR(HARFixtures.realWorld)
        #expect(first.exitCode == 0)
        // The same capture as another service: its routes clash with the first one's when loaded.
        let before = helper.tree(stubs)
        let clash = try await Subprocess.run(Repository.stubdBinary, ["import-har", har.path, "--stubs", stubs.path, "--service", "again"])
        #expect(clash.exitCode == 1 && clash.stderr.contains("nothing written"), "\(clash.stderr)")
        #expect(helper.tree(stubs) == before)
        let escape = try await Subprocess.run(Repository.stubdBinary, ["import-har", har.path, "--stubs", stubs.path, "--service", "../escaped"])
        #expect(escape.exitCode == 2 && escape.stderr.contains("--service takes a folder name"), "\(escape.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stubs.deletingLastPathComponent().appendingPathComponent("escaped").path))
    }
}

extension HARRealWorldTests {
    @Test func headersSlashesRepeatedNamesAndRevalidationsAnswerAsCaptured() async throws {
        let (result, stubs, _) = try await helper.importHAR(HARFixtures.quirks)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("Skipped: 1 304 revalidation") && result.stdout.contains("Changed: 1 304 with the cached body written as 200"), "\(result.stdout)")
        let profile = try String(contentsOf: stubs.appendingPathComponent("localhost-3000/get-profile/200.json"), encoding: .utf8)
        // The session cookie is a credential; the theme is ordinary text and stays.
        #expect(profile.contains("dark") && !helper.tree(stubs).contains { ((try? String(contentsOf: stubs.appendingPathComponent($0), encoding: .utf8)) ?? "").contains("Xk29fjQ0aP8s7Lm3Tq") })
        try await withServer(stubs: stubs) { server in
            let without = try await HTTPClient.fetch(server.url("/api/check-header"), method: "POST")
            let with = try await HTTPClient.fetch(server.url("/api/check-header"), method: "POST", headers: ["X-Custom-Auth": "true"])
            let slash = try await HTTPClient.fetch(server.url("/api/db/recording%2Fnode-http%2Fget"))
            let first = try await HTTPClient.fetch(server.url("/api/users?id=3&id=9"))
            let second = try await HTTPClient.fetch(server.url("/api/users?id=6&id=3"))
            let cached = try await HTTPClient.fetch(server.url("/api/profile"))
            #expect(without.status == 401 && with.status == 200, "\(without.status) \(with.status)")
            #expect(slash.status == 200 && slash.text.contains("recording"), "\(slash.status) \(slash.text)")
            #expect(first.text.contains("9") && second.text.contains("6"), "\(first.text) \(second.text)")
            #expect(cached.status == 200 && cached.text.contains("darkhorse"))
        }
    }
}
