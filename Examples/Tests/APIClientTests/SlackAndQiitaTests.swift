import APIClient
import Foundation
import StubServer
import Testing

/// Slack's `ok: false` errors with HTTP 200, its form-encoded posts, and Qiita's paging headers.
@Suite struct SlackAndQiitaTests {
    @Test func emojiListDecodes() async throws {
        try await withStubd { _, client in
            let list = try await client.request(SlackAPI.emojiList(token: "xoxb-test"), as: EmojiList.self)
            #expect(list.emoji["shipit"] == "alias:squirrel")
        }
    }

    @Test func postMessageIsFormEncodedAsSlackClientsSendIt() async throws {
        try await withStubd { server, client in
            let posted = try await client.request(SlackAPI.postMessage(token: "xoxb-test", channel: "C024BE91L", text: "Deploy done & live"),
                                                  as: PostedMessage.self)
            #expect(posted.channel == "C024BE91L")
            #expect(posted.message.botId == "B0789ABC456", "snake_case keys decoded")
            let sent = try #require(server.journal(route: "slack/chat.postMessage").first)
            #expect(sent.request.header("Content-Type") == "application/x-www-form-urlencoded")
            #expect(sent.request.bodyFields["text"] == "Deploy done & live")
            #expect(sent.request.header("Authorization", is: "Bearer xoxb-test"), "the token sent, checked against the journal's redacted marker")
        }
    }

    @Test func slackErrorsArriveWithStatus200AndBecomeTypedErrors() async throws {
        try await withStubd { _, client in
            await #expect(throws: SlackError(code: "channel_not_found", status: 200)) {
                _ = try await client.request(SlackAPI.postMessage(token: "t", channel: "C0000000000", text: "hi"), as: PostedMessage.self)
            }
        }
        try await withStubd(plugins: [StubControlPlugin(variant: "200-invalid-auth")]) { _, client in
            await #expect(throws: SlackError(code: "invalid_auth", status: 200)) {
                _ = try await client.request(SlackAPI.emojiList(token: "revoked"), as: EmojiList.self)
            }
        }
    }

    @Test func qiitaPagesAndTheTotalFromAHeader() async throws {
        try await withStubd { server, client in
            let first = try await client.items(page: 1, perPage: 3)
            let second = try await client.items(page: 2, perPage: 3)
            #expect(first.items.count == 3)
            #expect(first.total == 42)
            #expect(first.items.first?.title == "SwiftUIでPull to Refreshを実装する")
            #expect(second.items.first?.id == "5a9c2e7f1b3d80e4c6a7")
            #expect(server.journal(route: "qiita/items").last?.request.queryValue("per_page") == "3")
        }
    }

    @Test func qiitaRateLimitIsATypedError() async throws {
        try await withStubd(plugins: [StubControlPlugin(variant: "403")]) { _, client in
            await #expect(throws: QiitaError(status: 403, type: "rate_limit_exceeded", message: "Rate limit exceeded")) {
                _ = try await client.items(page: 1, perPage: 3)
            }
        }
    }
}
