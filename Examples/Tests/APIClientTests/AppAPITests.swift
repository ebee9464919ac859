import APIClient
import Foundation
import StubServer
import Testing

/// The app API: decoding, its error envelope as a typed error, and the request it sends.
@Suite struct AppAPITests {
    @Test func usersDecodeWithDates() async throws {
        try await withStubd { _, client in
            let users = try await client.request(AppAPI.users, as: Envelope<[User]>.self).data ?? []
            #expect(users.map(\.name) == ["Jane Cooper", "Marcus Lee", "Aiko Tanaka"])
            #expect(users.first?.createdAt == ISO8601DateFormatter().date(from: "2023-02-14T09:21:07Z"))
        }
    }

    @Test func loginSendsTheQueryAndDecodesTheSession() async throws {
        try await withStubd { server, client in
            let session = try #require(try await client.request(AppAPI.login(email: "jane@example.com", password: "correct-horse"),
                                                                as: Envelope<Session>.self).data)
            #expect(session.user.id == 1)
            #expect(session.token.hasPrefix("eyJ"))
            let sent = try #require(server.journal(route: "app/login").first)
            #expect(sent.request.queryValue("email") == "jane@example.com")
        }
    }

    @Test func eachErrorEnvelopeBecomesATypedError() async throws {
        try await withStubd { _, client in
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
    }

    @Test func aVariantChosenByThePluginIsServed() async throws {
        try await withStubd(plugins: [StubControlPlugin(variant: "200-empty")]) { _, client in
            let users = try await client.request(AppAPI.users, as: Envelope<[User]>.self).data
            #expect(users == [])
        }
    }
}
