@testable import StubSchema
import StubCore
import Testing

/// Each keyword OpenAPI uses, with the message a user reads.
@Suite struct SchemaValidatorTests {
    let validator = SchemaValidator(resolve: { ref in
        ref == "#/User" ? try? JSONParser.parse(#"{"type": "object", "required": ["email"], "properties": {"email": {"type": "string", "format": "email"}}}"#) : nil
    })

    func problems(_ instance: String, _ schema: String) throws -> [String] {
        validator.validate(try JSONParser.parse(instance), against: try JSONParser.parse(schema)).map(\.description)
    }

    @Test func typesNullableAndTypeArrays() throws {
        #expect(try problems("42", #"{"type": "string", "format": "email"}"#) == ["$: expected string (format email), found 42"])
        #expect(try problems("null", #"{"type": "string", "nullable": true}"#) == [])
        #expect(try problems("null", #"{"type": ["string", "null"]}"#) == [])
        #expect(try problems("true", #"{"type": ["string", "null"]}"#) == ["$: expected string or null, found true"])
        #expect(try problems("1.5", #"{"type": "integer"}"#) == ["$: expected integer, found 1.5"])
    }

    @Test func objectsArraysAndReferences() throws {
        #expect(try problems(#"{"data": {}}"#, ##"{"properties": {"data": {"$ref": "#/User"}}}"##) == [#"$.data: missing required key "email""#])
        #expect(try problems(#"{"a": 1, "b": 2}"#, #"{"properties": {"a": {}}, "additionalProperties": false}"#) == [#"$.b: unexpected key "b""#])
        #expect(try problems(#"[1, "x"]"#, #"{"items": {"type": "integer"}, "maxItems": 1}"#) == ["$: expected at most 1 items, found 2", #"$[1]: expected integer, found "x""#])
        #expect(try problems(#"{"odd key": 1}"#, #"{"properties": {"odd key": {"type": "string"}}}"#) == [#"$["odd key"]: expected string, found 1"#])
    }

    @Test func enumsConstAndCombinators() throws {
        #expect(try problems(#""pending""#, #"{"enum": ["open", "closed"]}"#) == [#"$: "pending" is not one of "open", "closed""#])
        #expect(try problems(#""b""#, #"{"const": "a"}"#) == [#"$: expected "a", found "b""#])
        #expect(try problems("5", #"{"allOf": [{"minimum": 1}, {"maximum": 3}]}"#) == ["$: expected at most 3, found 5"])
        #expect(try problems("5", #"{"anyOf": [{"type": "string"}, {"maximum": 3}]}"#) == ["$: matches none of the 2 anyOf schemas"])
        #expect(try problems("5", #"{"oneOf": [{"type": "integer"}, {"minimum": 1}]}"#) == ["$: matches 2 of the oneOf schemas, expected exactly one"])
        #expect(try problems("5", #"{"not": {"type": "integer"}}"#) == [#"$: matches the schema under "not""#])
    }

    @Test func numbersStringsAndFormats() throws {
        #expect(try problems("0", #"{"minimum": 0, "exclusiveMinimum": true}"#) == ["$: expected more than 0, found 0"])
        #expect(try problems("10", #"{"exclusiveMaximum": 10}"#) == ["$: expected less than 10, found 10"])
        #expect(try problems("3000000000", #"{"type": "integer", "format": "int32"}"#) == ["$: 3000000000 is not an int32"])
        #expect(try problems(#""ab""#, #"{"minLength": 3, "pattern": "^[a-z]+$"}"#) == ["$: expected at least 3 characters, found 2"])
        #expect(try problems(#""AB1""#, #"{"pattern": "^[a-z]+$"}"#) == [#"$: "AB1" does not match the pattern ^[a-z]+$"#])
        for (value, format) in [("2026-02-30", "date"), ("yesterday", "date-time"), ("not-a-uuid", "uuid"), ("jane@", "email"), ("no scheme", "uri")] {
            #expect(try problems("\"\(value)\"", #"{"format": "\#(format)"}"#) == ["$: \"\(value)\" is not a valid \(format)"])
        }
        for (value, format) in [("2024-02-29", "date"), ("2026-01-01T12:00:00Z", "date-time"), ("3fa85f64-5717-4562-b3fc-2c963f66afa6", "uuid"),
                                ("jane@example.com", "email"), ("https://example.com/a", "uri")] {
            #expect(try problems("\"\(value)\"", #"{"format": "\#(format)"}"#) == [])
        }
    }
}
