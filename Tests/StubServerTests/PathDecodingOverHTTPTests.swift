import Foundation
import StubServer
import StubTestSupport
import StubTesting
import Testing

/// The path is split at the slashes it was sent with, then each segment is decoded: `%2F` is part
/// of a parameter, not a separator, and the journal keeps the path as sent.
@Suite(.timeLimit(.minutes(3))) struct PathDecodingOverHTTPTests {
    @Test func anEncodedSlashStaysInsideItsSegment() async throws {
        try await withServer { server in
            let fetched = try await Curl.run(["-s", "--path-as-is", server.url("/api/v1/users/a%2Fb").absoluteString])
            // The route's own 404 envelope for id "a/b", not stubd's "no stub matches".
            #expect(fetched.stdout.contains("No user with id a/b."), "\(fetched.stdout)")
            let journal = try await AdminClient(server: server).object("GET", "/requests?limit=1")
            let entry = try #require((journal["requests"] as? [[String: Any]])?.first)
            #expect(entry["path"] as? String == "/api/v1/users/a%2Fb")
            #expect((entry["pathParameters"] as? [String: String]) == ["id": "a/b"])
            // A journal filter names the path as a client would type it, decoded or as sent.
            for filter in ["/api/v1/users/a%2Fb", "%2Fapi%2Fv1%2Fusers%2Fa%252Fb"] {
                let count = try await AdminClient(server: server).object("GET", "/requests/count?path=\(filter)")
                #expect(count["count"] as? Int == 1, "\(filter)")
            }
        }
    }

    @Test func escapedLettersMatchLiteralSegments() async throws {
        try await withServer { server in
            let fetched = try await Curl.run(["-s", "-o", "/dev/null", "-w", "%{http_code}", server.url("/%61pi/v1/users/%31").absoluteString])
            #expect(fetched.stdout == "200")
        }
    }

    @Test func theAdminAPIStillTakesEncodedSlashesInRouteIDs() async throws {
        try await withServer { server in
            let put = try await Curl.run(["-s", "-X", "PUT", "-d", #"{"variant": "200-empty"}"#, server.url("/__stubd/routes/app%2Fusers").absoluteString])
            #expect(put.stdout.contains("200-empty"), "\(put.stdout)")
            #expect(try await HTTPClient.fetch(server.url("/api/v1/users")).text.contains("[]"))
        }
    }
}
