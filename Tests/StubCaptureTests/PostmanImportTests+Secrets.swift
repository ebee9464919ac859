import Foundation
import StubCapture
import StubCore
import StubTestSupport
import StubTesting
import Testing

/// What a Postman import redacts: credentials (headers, auth blocks, secret variables, token-shaped
/// strings), each keeping its JSON type; not a sample `password` that tells two examples apart.
extension PostmanImportTests {
    /// The classic login: the same user, the right password answers 200 and a wrong one 401.
    @Test func examplesToldApartByAPasswordStayApart() async throws {
        func example(_ name: String, _ password: String, _ code: Int, _ body: String) -> String {
            #"{"name": "\#(name)", "code": \#(code), "originalRequest": {"method": "POST", "header": [{"key": "Content-Type", "value": "application/json"}], "body": {"mode": "raw", "raw": "{\"user\": \"ann\", \"password\": \"\#(password)\"}"}, "url": "https://auth.example/login"}, "header": [{"key": "Content-Type", "value": "application/json"}], "body": "\#(body)"}"#
        }
        let collection = """
        {"info": {"name": "Auth"}, "item": [{"name": "Log in", "request": {"method": "POST", "url": "https://auth.example/login"}, "response": [
          \(example("Logged in", "correct horse", 200, #"{\"ok\": true}"#)), \(example("Wrong password", "wrong", 401, #"{\"ok\": false}"#))]}]}
        """
        let (result, stubs) = try await importing(collection)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            func login(_ password: String) async throws -> Fetched {
                try await HTTPClient.fetch(server.url("/login"), method: "POST", headers: ["Content-Type": "application/json"],
                                           body: Data(#"{"user": "ann", "password": "\#(password)"}"#.utf8))
            }
            let wrong = try await login("wrong")
            let right = try await login("correct horse")
            #expect(wrong.status == 401 && right.status == 200, "\(wrong.status) \(right.status)")
        }
    }

    /// A secret-named field that is a flag, an object, a date or a count keeps its value; a
    /// token-shaped string becomes `"REDACTED"`, still a string; a credential from an auth block
    /// or a secret environment value is scrubbed wherever an example repeats it.
    @Test func redactionKeepsTypesAndTakesOnlyCredentials() async throws {
        let body = #"{\"tokenize\": false, \"passwordPolicy\": {\"minLength\": 8, \"resetToken\": \"rt_9f8e7d6c5b4a39281706\"}, \"tokenExpiresOn\": \"2025-03-01T10:00:00Z\", \"input_tokens\": 12, \"session_token\": \"eyJhbGciOiJIUzI1NiJ9x1y2z3\", \"echo\": \"Bearer-s3cretFromAuth\", \"key\": \"envSecret77\"}"#
        let collection = """
        {"info": {"name": "Cards"}, "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "Bearer-s3cretFromAuth"}]},
         "item": [{"name": "Card", "request": {"method": "GET", "url": "https://cards.example/cards/1"}, "response": [
          {"name": "Card", "code": 200, "originalRequest": {"method": "GET", "url": "https://cards.example/cards/1"},
           "header": [{"key": "Content-Type", "value": "application/json"}], "body": "\(body)"}]}]}
        """
        let environment = #"{"name": "Test", "values": [{"key": "apiKey", "value": "envSecret77", "type": "secret", "enabled": true}]}"#
        let (result, stubs) = try await importing(collection, environment: environment)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            let got = try await HTTPClient.fetch(server.url("/cards/1"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(got.text.utf8)) as? [String: Any], "\(got.text)")
            #expect(json["tokenize"] as? Bool == false, "\(got.text)")
            let policy = try #require(json["passwordPolicy"] as? [String: Any], "\(got.text)")
            #expect(policy["minLength"] as? Int == 8 && policy["resetToken"] as? String == "REDACTED", "\(got.text)")
            #expect(json["tokenExpiresOn"] as? String == "2025-03-01T10:00:00Z", "\(got.text)")
            #expect(json["input_tokens"] as? Int == 12, "\(got.text)")
            #expect(json["session_token"] as? String == "REDACTED", "\(got.text)")
            #expect(!got.text.contains("s3cretFromAuth") && !got.text.contains("envSecret77"), "\(got.text)")
        }
    }

    /// `--redact NAME` still redacts NAME's strings, whatever their shape, and keeps their type.
    @Test func aNameAskedForIsRedactedWhateverItsShape() async throws {
        let collection = #"""
        {"info": {"name": "Shop"}, "item": [{"name": "Me", "request": {"method": "GET", "url": "https://shop.example/me"}, "response": [
          {"name": "Me", "code": 200, "originalRequest": {"method": "GET", "url": "https://shop.example/me"},
           "header": [{"key": "Content-Type", "value": "application/json"}], "body": "{\"nickname\": \"ann\", \"age\": 40, \"password\": \"hunter\"}"}]}]}
        """#
        let (result, stubs) = try await importing(collection, ["--redact", "nickname", "--redact", "password"])
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        try await withServer(stubs: stubs) { server in
            let got = try await HTTPClient.fetch(server.url("/me"))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(got.text.utf8)) as? [String: Any], "\(got.text)")
            #expect(json["nickname"] as? String == "REDACTED" && json["password"] as? String == "REDACTED" && json["age"] as? Int == 40, "\(got.text)")
        }
    }
}
