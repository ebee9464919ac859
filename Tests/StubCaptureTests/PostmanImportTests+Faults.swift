import Foundation
import StubCapture
import StubCore
import StubTestSupport
import StubTesting
import Testing

/// What public collections (Adyen's, Plaid's) tripped over: path variables saved without a
/// value, examples without a `code`, a `{{baseUrl}}` nobody defines.
extension PostmanImportTests {
    /// Adyen's collections leave `:paymentPspReference` empty: the route takes any value, and no
    /// `when` asks for the text `:paymentPspReference`.
    @Test func anEmptyPathVariableIsAParameterNotAWhenCondition() async throws {
        let request = #"{"method": "POST", "url": {"raw": "https://checkout.example/v71/payments/:paymentPspReference/captures", "host": ["checkout", "example"], "path": ["v71", "payments", ":paymentPspReference", "captures"], "variable": [{"key": "paymentPspReference", "value": ""}]}}"#
        let collection = """
        {"info": {"name": "Checkout"}, "item": [{"name": "Capture", "request": \(request), "response": [
          {"name": "Created", "code": 201, "originalRequest": \(request), "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\\"status\\": \\"received\\"}"},
          {"name": "Unprocessable", "code": 422, "originalRequest": \(request), "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\\"status\\": 422}"}]}]}
        """
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0 && result.stdout.contains("{paymentPspReference}/captures"), "\(result.stdout)\(result.stderr)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: stubs.path).filter { $0.hasSuffix("route.json") }
        let route = try files.map { try String(contentsOfFile: stubs.appendingPathComponent($0).path, encoding: .utf8) }.joined()
        #expect(route.contains("{paymentPspReference}"), "\(files)")
        #expect(!route.contains("\":paymentPspReference\""), "\(route)")
        try await withServer(stubs: stubs) { server in
            let got = try await HTTPClient.fetch(server.url("/v71/payments/ABC123/captures"), method: "POST")
            #expect(got.status == 201 && got.text.contains("received"))
            #expect(try await HTTPClient.fetch(server.url("/v71/payments/ABC123/captures"), method: "POST", headers: ["x-mock-response-name": "Unprocessable"]).status == 422)
        }
    }

    /// An example saved without a `code` answers with the status its `status` text names, and
    /// the report says so for each one.
    @Test func anExampleWithoutACodeTakesItsStatusFromItsText() async throws {
        let collection = #"""
        {"info": {"name": "Bank"}, "item": [{"name": "Get account", "request": {"method": "GET", "url": "https://bank.example/accounts/1"}, "response": [
          {"name": "Found", "status": "OK", "originalRequest": {"method": "GET", "url": "https://bank.example/accounts/1"}, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"id\": 1}"},
          {"name": "Missing", "status": "not found", "originalRequest": {"method": "GET", "url": "https://bank.example/accounts/2"}, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"error\": \"none\"}"},
          {"name": "Made", "status": "201 Created", "originalRequest": {"method": "GET", "url": "https://bank.example/accounts/3"}, "body": ""},
          {"name": "Odd", "status": "Splendid", "originalRequest": {"method": "GET", "url": "https://bank.example/accounts/4"}, "body": ""}]}]}
        """#
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(#"Get account / Found: no code; status 200 from its status text "OK", the reason phrase of 200"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"Get account / Missing: no code; status 404 from its status text "not found", the reason phrase of 404"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"Get account / Made: no code; status 201 from the number its status text "201 Created" starts with"#), "\(result.stdout)")
        #expect(result.stderr.contains("skipped Get account / Odd: an example without a status code"), "\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            let found = try await HTTPClient.fetch(server.url("/accounts/1"))
            let missing = try await HTTPClient.fetch(server.url("/accounts/2"))
            let made = try await HTTPClient.fetch(server.url("/accounts/3"))
            #expect(found.status == 200 && missing.status == 404 && made.status == 201, "\(found.status) \(missing.status) \(made.status)")
        }
    }

    /// A `{{baseUrl}}` nobody defines is the API's base: the requests are kept, their paths as
    /// routes, with a warning naming the variable.
    @Test func anUndefinedHostVariableIsTheBase() async throws {
        let collection = #"""
        {"info": {"name": "Shared"}, "item": [{"name": "Balance", "request": {"method": "GET", "url": "{{baseUrl}}/accounts/balance"}, "response": [
          {"name": "Balance", "code": 200, "originalRequest": {"method": "GET", "url": {"raw": "{{baseUrl}}/accounts/balance", "host": ["{{baseUrl}}"], "path": ["accounts", "balance"]}},
           "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"available\": 10}"}]}]}
        """#
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("warning: {{baseUrl}} is not defined"), "\(result.stderr)")
        #expect(result.stdout.contains("{{baseUrl}} is not defined") && result.stdout.contains("its 1 example is served by the service baseurl"), "\(result.stdout)")
        try await withServer(stubs: stubs) { server in
            let got = try await HTTPClient.fetch(server.url("/accounts/balance"))
            #expect(got.status == 200 && got.text.contains("10"))
        }
    }

    /// Postman's dynamic variables (`{{$guid}}`) change on each send: no `when` asks for them
    /// (stubd would read one as a placeholder and refuse the route).
    @Test func aDynamicVariableInARequestBodyIsNoWhenCondition() async throws {
        func example(_ name: String, _ code: Int, _ reference: String) -> String {
            #"{"name": "\#(name)", "code": \#(code), "originalRequest": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}], "body": {"mode": "raw", "raw": "{\"reference\": \"\#(reference)\", \"amount\": \#(code)}"}, "url": "https://pay.example/payments"}, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"code\": \#(code)}"}"#
        }
        let collection = """
        {"info": {"name": "Pay"}, "item": [{"name": "Pay", "request": {"method": "POST", "url": "https://pay.example/payments"}, "response": [
          \(example("Paid", 200, "{{$guid}}")), \(example("Refused", 422, "ref-1"))]}]}
        """
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            let refused = try await HTTPClient.fetch(server.url("/payments"), method: "POST", headers: ["Content-Type": "application/json"],
                                                     body: Data(#"{"reference": "ref-1", "amount": 422}"#.utf8))
            #expect(refused.status == 422, "\(refused.text)")
        }
    }
}
