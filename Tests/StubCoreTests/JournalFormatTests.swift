import Foundation
@testable import StubCore
import Testing

/// The journal's wire forms written straight to bytes: times, JSON text and whole entries.
@Suite struct JournalFormatTests {
    @Test(arguments: [0.0, 1.0, -1.5, 951_782_400.999, 1_709_164_800.5, 1_798_761_706.373, 4_102_444_799.9994, -2_208_988_800.25])
    func timesAreWrittenAsFoundationWritesThem(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(ISO8601.format(date) == Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
    }

    @Test func jsonBytesAreTheSameTextAsTheStringWriter() throws {
        let value = JSONValue.object([
            ("plain", .string("hello")), ("quote", .string("a\"b\\c")), ("controls", .string("\n\r\t\u{01}\u{1f}")),
            ("unicode", .string("héllo ✓ 🚀")), ("numbers", .array([.number(1), .number(-2.5), .number(1e21)])),
            ("nested", .object([("empty", .array([])), ("none", .object([])), ("null", .null), ("yes", .bool(true))])),
            ("", .string("")),
        ])
        #expect(String(decoding: value.serializedBytes(), as: UTF8.self) == value.serialized())
        #expect(try JSONParser.parse(value.serializedBytes()) == value)
    }

    @Test func anEntryHasEveryMemberInOrderAndReadsBack() throws {
        let request = StubRequest(method: "POST", path: "/api/v1/items/42", query: [("tag", "a"), ("tag", "b"), ("q", "x\"y")],
                                  headers: [("X-A", "1"), ("X-A", "2"), ("Content-Type", "application/octet-stream")], body: [0xff, 0x00, 0x10],
                                  scheme: .https)
        var record = RequestRecord(request: request, session: "team/a", routeID: "app/item", variant: "500", status: 500, delayMs: 250,
                                   fault: .reset, elapsedMs: 1.23456, bodyBytes: 3, receivedAt: Date(timeIntervalSince1970: 1_798_761_706.5))
        record.chosen(by: .sequence, step: (2, 3))
        let bytes = JournalEntryWriter.bytes(record, id: 7, replica: "r2")
        let json = try JSONParser.parse(bytes)
        guard case .object(let members) = json else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["id", "time", "method", "scheme", "httpVersion", "path", "query", "pathParameters", "headers", "body", "bodyEncoding",
                                       "bodyBytes", "bodyTruncated", "route", "operation", "variant", "status", "delayMs", "elapsedMs", "fault",
                                       "proxied", "contract", "eventsSent", "clientGone", "session", "selection", "nearMisses", "replica"])
        #expect(json["id"]?.numberValue == 7)
        #expect(json["time"] == .string("2027-01-01T00:01:46.500Z"))
        #expect(json["scheme"] == .string("https") && json["httpVersion"] == .string("HTTP/1.1"))
        #expect(json["query"] == .object([("tag", .array([.string("a"), .string("b")])), ("q", .string("x\"y"))]))
        #expect(json["headers"] == .object([("X-A", .string("1")), ("Content-Type", .string("application/octet-stream"))]))
        #expect(json["body"] == .string("/wAQ") && json["bodyEncoding"] == .string("base64"))
        #expect(json["elapsedMs"]?.numberValue == 1.235)
        #expect(json["fault"] == .string("reset") && json["session"] == .string("team/a"))
        #expect(json["selection"] == .object([("by", .string("sequence")), ("step", .number(2)), ("of", .number(3))]))
        #expect(json["replica"] == .string("r2"))
        // Without a replica, the admin API's entry is the same, less that member.
        let local = AdminAPI.entryJSON(RequestJournal.Entry(id: 7, record: record))
        guard case .object(let localMembers) = local else { Issue.record("not an object"); return }
        #expect(localMembers.map(\.key) == members.dropLast().map(\.key))
    }
}
