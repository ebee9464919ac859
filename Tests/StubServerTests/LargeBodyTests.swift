import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// A body of 100 KB, prepared once and shared by every request: the same bytes over HTTP and
/// HTTPS, with its length, before and after a reload.
@Suite(.timeLimit(.minutes(3))) struct LargeBodyTests {
    @Test func largeBodiesAreServedWholeOverHTTPAndHTTPS() async throws {
        let big = "[" + (0..<4000).map { #"{"id": \#($0), "name": "item number \#($0)"}"# }.joined(separator: ",") + "]"
        #expect(big.utf8.count > 100_000)
        let stubs = try TemporaryStubDirectory([
            "big/route.json": #"{"method": "GET", "path": "/big"}"#,
            "big/200.json": big,
            "small/route.json": #"{"method": "GET", "path": "/small"}"#,
            "small/200.json": #"{"ok": true}"#,
        ])
        let tls = try TLSFixture()
        try await withServer(stubs: stubs.url, configure: { try! tls.configure(&$0) }) { server in
            for _ in 0..<3 {
                let got = try await HTTPClient.fetch(server.url("/big"))
                #expect(got.status == 200 && got.text == big && got.header("Content-Length") == String(big.utf8.count))
            }
            let secure = try await Curl.run(["-s", "--cacert", tls.directory.authorityCertificate, server.tlsURL("/big").absoluteString])
            #expect(secure.stdout == big)
            let head = try await Curl.run(["-s", "-I", server.url("/big").absoluteString])
            #expect(head.stdout.contains("Content-Length: \(big.utf8.count)"))
            try stubs.write(["big/200.json": big.replacingOccurrences(of: "item", with: "thing")])
            try server.reload()
            let after = try await HTTPClient.fetch(server.url("/big"))
            #expect(after.text.contains("thing number 7"))
        }
    }
}
