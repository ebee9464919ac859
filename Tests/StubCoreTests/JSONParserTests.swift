import StubCore
import Testing

@Suite struct JSONParserTests {
    @Test func keepsObjectKeysInFileOrder() throws {
        let value = try JSONParser.parse(#"{"z": 1, "a": [true, null, "x"], "m": {"k": -1.5e2}}"#)
        guard case .object(let members) = value else { Issue.record("not an object"); return }
        #expect(members.map(\.key) == ["z", "a", "m"])
        #expect(value["a"] == .array([.bool(true), .null, .string("x")]))
        #expect(value["m"]?["k"] == .number(-150))
    }

    @Test func reportsLineAndColumnOfSyntaxErrors() {
        #expect(throws: JSONSyntaxError(line: 3, column: 3, message: "expected a quoted key, found '}'")) {
            try JSONParser.parse("{\n  \"a\": 1,\n  }")
        }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("[1, 2") }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{\"a\": 01}") }
        #expect(throws: JSONSyntaxError.self) { try JSONParser.parse("{} x") }
    }

    @Test func rejectsDuplicateKeys() {
        do {
            _ = try JSONParser.parse(#"{"a": 1, "a": 2}"#)
            Issue.record("duplicate key accepted")
        } catch {
            #expect(error.message == #"duplicate key "a""#)
            #expect(error.column == 10)
        }
    }

    /// Past 32 keys a duplicate is looked for in a set of the keys: still found, named and placed.
    @Test func rejectsADuplicateKeyInALargeObject() throws {
        let keys = (0..<100).map { "\"k\($0)\": \($0)" }
        for duplicate in ["k0", "k31", "k32", "k99"] {
            let tail = "\"\(duplicate)\": 0}"
            let text = "{" + keys.joined(separator: ", ") + ", " + tail
            do {
                _ = try JSONParser.parse(text)
                Issue.record("duplicate key \(duplicate) accepted")
            } catch {
                #expect(error.message == "duplicate key \"\(duplicate)\"")
                #expect(error.column == text.count - tail.count + 1)
            }
        }
        let many = try JSONParser.parse("{" + (0..<20_000).map { "\"v\($0)\": 1" }.joined(separator: ",") + "}")
        guard case .object(let members) = many else { Issue.record("not an object"); return }
        #expect(members.count == 20_000 && members.last?.key == "v19999")
    }

    @Test func decodesEscapesAndUnicode() throws {
        let value = try JSONParser.parse(#""a\"b\\c\n\u00e9\ud83d\ude00 日本""#)
        #expect(value == .string("a\"b\\c\n\u{e9}😀 日本"))
    }

    @Test func serializesBackToEquivalentJSON() throws {
        let text = #"{"b":[1,2.5,"x\"y"],"a":{"c":null,"d":false}}"#
        let value = try JSONParser.parse(text)
        #expect(value.serialized() == text)
        #expect(try JSONParser.parse(value.serialized(pretty: true)) == value)
    }
}
