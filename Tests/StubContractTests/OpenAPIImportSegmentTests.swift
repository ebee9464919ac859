import Foundation
import StubCore
import Testing
import StubTestSupport

/// Paths with a parameter inside a segment (Twilio's `/Accounts/{Sid}.json`, Box's
/// `thumbnail.{extension}`): imported as routes of their own, served, and checked with no drift.
@Suite(.timeLimit(.minutes(3))) struct OpenAPIImportSegmentTests {
    let helper = OpenAPIImportTests()

    @Test func parametersInsideASegmentAreImportedServedAndChecked() async throws {
        let (_, spec, stubs, result) = try await helper.importing("""
        openapi: 3.0.3
        info: {title: Twilio Like, version: "1"}
        paths:
          /Accounts/{Sid}.json:
            get:
              operationId: FetchAccount
              parameters: [{name: Sid, in: path, required: true, schema: {type: string}}]
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: object, required: [kind], properties: {kind: {type: string, enum: [account]}}}}}}
          /Accounts.json:
            get:
              operationId: ListAccount
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: object, required: [kind], properties: {kind: {type: string, enum: [list]}}}}}}
          /files/{id}/thumbnail.{extension}:
            get:
              operationId: GetThumbnail
              parameters:
                - {name: id, in: path, required: true, schema: {type: string}}
                - {name: extension, in: path, required: true, schema: {type: string}}
              responses:
                "200": {description: ok, content: {application/json: {schema: {type: object, required: [kind], properties: {kind: {type: string, enum: [thumbnail]}}}}}}
          /pairs/{a}{b}:
            get:
              operationId: Pair
              responses: {"204": {description: none}}
        """, as: "twilio.yaml")
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("GET /Accounts/{Sid}.json  variants: 200"), "\(result.stdout)")
        #expect(result.stdout.contains("GET /files/{id}/thumbnail.{extension}  variants: 200"), "\(result.stdout)")
        // Two parameters side by side have no faithful route: skipped, and said why.
        #expect(result.stderr.contains("skipped GET /pairs/{a}{b}") && result.stderr.contains("{a} and {b} side by side"), "\(result.stderr)")
        #expect(result.stdout.contains("3 written, 1 skipped"), "\(result.stdout)")
        let check = try await helper.stubd(["check", stubs.path, "--openapi", spec])
        // Only the skipped operation has no route.
        let unrouted = check.stderr.split(separator: "\n").filter { $0.contains("has no route") }
        #expect(check.exitCode == 0 && unrouted.count == 1 && unrouted[0].contains("/pairs/"), "\(check.stdout)\(check.stderr)")
        try await withServer(stubs: stubs) { server in
            for (path, kind) in [("/Accounts/AC1.json", "account"), ("/Accounts.json", "list"), ("/files/7/thumbnail.png", "thumbnail")] {
                let got = try await HTTPClient.fetch(server.url(path))
                #expect(got.status == 200 && got.text.contains("\"\(kind)\""), "\(path): \(got.status) \(got.text)")
            }
            #expect(try await HTTPClient.fetch(server.url("/Accounts/AC1.xml")).status == 404)
        }
    }
}
