#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// One test's own session on a stubd: its overrides, sequences, holds, journal and state are seen
/// by no other test, so tests that run in parallel (Swift Testing's default, parallel Simulator
/// clones) never step on each other.
///
/// The `.stubServer` trait of `StubTesting` makes one for every test and puts it in
/// ``current``. An XCTest case or a UI test makes its own in `setUp` and ends it in a teardown
/// block:
///
/// ```swift
/// final class LoginUITests: XCTestCase {
///     var stubs: StubdTestSession!
///
///     override func setUp() async throws {
///         stubs = StubdTestSession(serverURL: URL(string: "http://127.0.0.1:8080")!, name: name)
///         addTeardownBlock { [stubs] in try await stubs?.end() }
///         try await stubs.client.override(route: "app/login", variant: "401")
///         let app = XCUIApplication()
///         app.launchEnvironment.merge(stubs.launchEnvironment) { _, new in new }
///         app.launch()
///     }
/// }
/// ```
public struct StubdTestSession: Sendable {
    /// The session's name: the test's name made safe for a URL, and a random suffix.
    public let id: String
    /// The server's own address, like `http://127.0.0.1:8080`, without the session.
    public let serverURL: URL
    /// The address an app under test uses as its API base: `serverURL` with the session prefix
    /// (`/__session/<id>`), so every request it sends lands in this session without a header.
    public let baseURL: URL
    /// A client for the admin API, bound to this session: its overrides, journal reads and
    /// state calls are this test's alone.
    public let client: StubdClient

    /// A new session on the stubd at `serverURL`, named after `name` (a test's name; any
    /// characters) with a random suffix, so two runs of the same test never share one.
    /// Nothing is sent until the first request: a session exists on the server once used.
    public init(serverURL: URL, name: String = "test", adminToken: String? = nil, urlSession: URLSession = .shared) {
        let root = serverURL.absoluteString.hasSuffix("/") ? String(serverURL.absoluteString.dropLast()) : serverURL.absoluteString
        let id = StubdTestSession.sessionName(for: name)
        self.id = id
        self.serverURL = URL(string: root)!
        self.baseURL = URL(string: root + "/__session/" + id)!
        self.client = StubdClient(baseURL: self.serverURL, session: id, adminToken: adminToken, urlSession: urlSession)
    }

    /// `baseURL` with `pathAndQuery` appended: `stubs.url("/api/v1/users?page=2")`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery)!
    }

    /// What an app launched by a UI test reads to find stubd: ``StubdLaunchEnvironment/baseURL``
    /// (the session's base URL), ``StubdLaunchEnvironment/session`` and
    /// ``StubdLaunchEnvironment/serverURL``. Merge it into `XCUIApplication.launchEnvironment`.
    public var launchEnvironment: [String: String] {
        [StubdLaunchEnvironment.baseURL: baseURL.absoluteString,
         StubdLaunchEnvironment.session: id,
         StubdLaunchEnvironment.serverURL: serverURL.absoluteString]
    }

    /// Clears the session on the server: its overrides, sequences and holds (held requests go
    /// on), its journal entries and its state. Call it when the test ends.
    public func end() async throws {
        try await client.clearSession(id)
    }

    /// The session of the test running now, set by the `.stubServer` trait of `StubTesting`
    /// for each test (each case of a parameterized test) in its scope; nil elsewhere.
    @TaskLocal public static var current: StubdTestSession?

    /// `name` as a session name: letters, digits, `-` and `_` kept (at most 64), the rest
    /// replaced by `-`, then `-` and 8 random hex digits.
    static func sessionName(for name: String) -> String {
        var safe = ""
        for scalar in name.unicodeScalars.prefix(64) {
            let keep = scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
            if keep { safe.unicodeScalars.append(scalar) } else if !safe.hasSuffix("-") { safe += "-" }
        }
        let trimmed = safe.trimmingCharacters(in: CharacterSet(charactersIn: "-"))
        let suffix = UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(8).lowercased()
        return (trimmed.isEmpty ? "test" : trimmed) + "-" + suffix
    }
}

/// The launch-environment keys an app under test reads to find stubd, set from
/// ``StubdTestSession/launchEnvironment``. In the app (debug builds):
///
/// ```swift
/// let base = ProcessInfo.processInfo.environment["STUBD_BASE_URL"].flatMap(URL.init(string:))
///     ?? URL(string: "https://api.example.com")!
/// ```
public enum StubdLaunchEnvironment {
    /// `STUBD_BASE_URL`: the API base URL with the test's session in its path.
    public static let baseURL = "STUBD_BASE_URL"
    /// `STUBD_SESSION`: the session's name, for an app that sends `X-Stub-Session` itself.
    public static let session = "STUBD_SESSION"
    /// `STUBD_SERVER_URL`: the server's address without a session.
    public static let serverURL = "STUBD_SERVER_URL"
}
