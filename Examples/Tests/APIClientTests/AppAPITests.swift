import APIClient
import Foundation
import StubdClient
import StubTesting
import Testing

/// The app API: decoding, its error envelope as a typed error, and the request it sends. One
/// server for the suite (`.stubServer`), and a session of its own for each test.
@Suite(.stubServer(stubs: ShippedStubs.url))
struct AppAPITests {
    /// The running test's session and a client that sends every request in it.
    static func stubs(plugins: [any RequestPlugin] = []) throws -> (StubdTestSession, APIClient) {
        let stubs = try #require(StubdTestSession.current)
        return (stubs, APIClient(server: stubs.baseURL, plugins: plugins))
    }

    @Test func usersDecodeWithDates() async throws {
        let (_, client) = try Self.stubs()
        let users = try await client.request(AppAPI.users, as: Envelope<[User]>.self).data ?? []
        #expect(users.map(\.name) == ["Jane Cooper", "Marcus Lee", "Aiko Tanaka"])
        #expect(users.first?.createdAt == ISO8601DateFormatter().date(from: "2023-02-14T09:21:07Z"))
    }

    @Test func loginSendsTheQueryAndDecodesTheSession() async throws {
        let (stubs, client) = try Self.stubs()
        let session = try #require(try await client.request(AppAPI.login(email: "jane@example.com", password: "correct-horse"),
                                                            as: Envelope<Session>.self).data)
        #expect(session.user.id == 1)
        #expect(session.token.hasPrefix("eyJ"))
        let sent = try #require(try await stubs.client.journal(route: "app/login").first)
        #expect(sent.query["email"] == ["jane@example.com"])
    }

    @Test func eachErrorEnvelopeBecomesATypedError() async throws {
        let (_, client) = try Self.stubs()
        await #expect(throws: AppError(status: 401, title: "Login failed", message: "Wrong email or password.")) {
            _ = try await client.request(AppAPI.login(email: "jane@example.com", password: "wrong"), as: Envelope<Session>.self)
        }
        await #expect(throws: AppError(status: 404, title: "Not found", message: "No user with id 999.")) {
            _ = try await client.request(AppAPI.user(id: 999), as: Envelope<User>.self)
        }
        // A JSON body matched by `when` on the server.
        await #expect(throws: AppError(status: 400, title: "Weak password",
                                       message: "Choose a password with at least 8 characters that is hard to guess.")) {
            _ = try await client.request(AppAPI.changePassword(old: "correct-horse", new: "123456"), as: Envelope<Empty>.self)
        }
    }

    @Test func aVariantChosenByThePluginIsServed() async throws {
        let (_, client) = try Self.stubs(plugins: [StubControlPlugin(variant: "200-empty")])
        let users = try await client.request(AppAPI.users, as: Envelope<[User]>.self).data
        #expect(users == [])
    }

    @Test func anOverrideStaysInItsTestsSession() async throws {
        let (stubs, client) = try Self.stubs()
        try await stubs.client.override(route: "app/users", variant: "500")
        await #expect(throws: AppError(status: 500, title: "Server error", message: "Something went wrong.")) {
            _ = try await client.request(AppAPI.users, as: Envelope<[User]>.self)
        }
        // The same request outside the session gets the default.
        let outside = APIClient(server: stubs.serverURL)
        #expect(try await outside.request(AppAPI.users, as: Envelope<[User]>.self).data?.count == 3)
        #expect(try await stubs.client.journal(route: "app/users").count == 1)
    }
}
