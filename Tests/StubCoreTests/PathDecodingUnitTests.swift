@testable import StubCore
import Testing

/// Per-segment decoding of request paths, and what makes a path a 400.
@Suite struct PathDecodingUnitTests {
    @Test(arguments: [
        ("/users/1", nil),
        ("/users/caf%C3%A9", nil),
        ("/users/a%2Fb", nil),
        ("/users%00/../x", "no %00 (NUL) in a path segment"),
        ("/users/%zz", "'%' followed by two hex digits"),
        ("/users/%4", "'%' followed by two hex digits"),
        ("/users/%FF", "escapes that decode to UTF-8"),
        ("/us ers", "no space or control character (percent-encode it)"),
        ("/a\tb", "no space or control character (percent-encode it)"),
    ] as [(String, String?)])
    func problems(path: String, expected: String?) {
        #expect(PathDecoding.problem(in: path)?.expected == expected)
    }

    @Test func theBadSegmentIsNamed() {
        #expect(PathDecoding.problem(in: "/api/v1/users%00/../secret.txt")?.segment == "users%00")
    }

    @Test func parametersAreDecodedPerSegmentAndLiteralsMatchDecoded() throws {
        let template = PathTemplate("/users/{id}/files/{name}")
        #expect(template.value(of: "id", in: "/users/a%2Fb/files/caf%C3%A9") == "a/b")
        #expect(template.value(of: "name", in: "/users/a%2Fb/files/caf%C3%A9") == "café")
        #expect(PathDecoding.decodedWhole("/__stubd/routes/app%2Fusers") == "/__stubd/routes/app/users")
    }
}
