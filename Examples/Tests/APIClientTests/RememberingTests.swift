import APIClient
import Foundation
import StubServer
import Testing

/// Flows that need the server to remember, through the example client: a password change, and a
/// todo list changed and read back. Each test has its own server, so its own state.
@Suite struct RememberingTests {
    @Test func afterAPasswordChangeOnlyTheNewPasswordLogsIn() async throws {
        try await withStubd { server, client in
            _ = try await client.request(AppAPI.login(email: "jane@example.com", password: "correct-horse"), as: Envelope<Session>.self)
            _ = try await client.request(AppAPI.changePassword(old: "correct-horse", new: "battery-staple"), as: Envelope<Empty>.self)
            await #expect(throws: AppError(status: 401, title: "Login failed", message: "Wrong email or password.")) {
                _ = try await client.request(AppAPI.login(email: "jane@example.com", password: "correct-horse"), as: Envelope<Session>.self)
            }
            let session = try await client.request(AppAPI.login(email: "jane@example.com", password: "battery-staple"), as: Envelope<Session>.self)
            #expect(session.data?.user.id == 1)
            // A wrong current password is refused in the envelope and changes nothing.
            await #expect(throws: AppError(status: 401, title: "Wrong password", message: "Your current password is incorrect.")) {
                _ = try await client.request(AppAPI.changePassword(old: "correct-horse", new: "x1234567"), as: Envelope<Empty>.self)
            }
            server.reset()
            _ = try await client.request(AppAPI.login(email: "jane@example.com", password: "correct-horse"), as: Envelope<Session>.self)
        }
    }

    @Test func theTodoListShowsWhatWasCreatedChangedAndDeleted() async throws {
        try await withStubd { _, client in
            let first = try await client.request(TodoAPI.list(page: 1, perPage: 10), as: TodoPage.self)
            #expect(first.meta.total == 5 && first.data.count == 5)
            var created: [Todo] = []
            for title in ["Pack", "Print tickets", "Leave"] {
                created.append(try await client.request(TodoAPI.create(title: title), as: Todo.self))
            }
            #expect(created.map(\.id) == [6, 7, 8])
            let done = try await client.request(TodoAPI.setDone(id: 7, done: true), as: Todo.self)
            #expect(done.id == 7 && done.title == "Print tickets" && done.done)
            let (_, deleted) = try await client.send(TodoAPI.delete(id: 6))
            #expect(deleted.statusCode == 204)
            await #expect(throws: AppError(status: 404, title: "Not found", message: "no id 6 in /api/v1/todos")) {
                _ = try await client.request(TodoAPI.todo(id: 6), as: Todo.self)
            }
            let byTitle = try await client.request(TodoAPI.list(page: 1, perPage: 3, sort: "title"), as: TodoPage.self)
            #expect(byTitle.meta.total == 7 && byTitle.meta.pages == 3)
            #expect(byTitle.data.map(\.title) == ["Book dentist appointment", "Buy oat milk", "Leave"])
        }
    }
}
