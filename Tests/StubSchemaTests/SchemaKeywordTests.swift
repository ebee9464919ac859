import StubCore
import StubSchema
import Testing

/// The validator's misses found on real documents and the JSON Schema Test Suite, each pinned.
@Suite struct SchemaKeywordTests {
    func problems(_ instance: String, _ schema: String, dialect: SchemaDialect = .draft2020) throws -> [String] {
        SchemaValidator(dialect: dialect).validate(try JSONParser.parse(instance), against: try JSONParser.parse(schema)).map(\.description)
    }

    @Test func additionalPropertiesLeavesPatternPropertiesAlone() throws {
        let schema = #"{"patternProperties": {"^x-": {"type": "string"}}, "additionalProperties": false}"#
        #expect(try problems(#"{"x-trace": "abc"}"#, schema) == [])
        #expect(try problems(#"{"x-trace": 1, "y": 2}"#, schema) == ["$.x-trace: expected string, found 1", #"$.y: unexpected key "y""#])
    }

    @Test func stringsCompareByCodePointNotByCanonicalEquivalence() throws {
        #expect(try problems(#""a\u0308""#, #"{"enum": ["ä"]}"#) == [#"$: "ä" is not one of "ä""#])
        #expect(try problems(#""ä""#, #"{"const": "ä"}"#) == [])
        #expect(try problems(#"{"a\u0308": 1}"#, #"{"properties": {"ä": {"type": "string"}}, "additionalProperties": false}"#).count == 1)
    }

    @Test func bigIntegersKeepTheirDigits() throws {
        #expect(try problems("9007199254740993", #"{"const": 9007199254740992}"#).count == 1)
        #expect(try problems("9007199254740993", #"{"enum": [9007199254740993]}"#) == [])
        let parsed = try JSONParser.parse(#"{"a": 9223372036854775807, "b": 9007199254740993, "c": 1.50}"#)
        #expect(parsed.serialized() == #"{"a":9223372036854775807,"b":9007199254740993,"c":1.50}"#)
    }

    @Test func multipleOfMinMaxPropertiesUniqueItemsAndFriends() throws {
        #expect(try problems("0.0075", #"{"multipleOf": 0.0001}"#) == [])
        #expect(try problems("0.00751", #"{"multipleOf": 0.0001}"#) == ["$: expected a multiple of 0.0001, found 0.00751"])
        #expect(try problems("{}", #"{"minProperties": 1}"#) == ["$: expected at least 1 keys, found 0"])
        #expect(try problems("[1, 2, 1.0]", #"{"uniqueItems": true}"#) == ["$: items 0 and 2 are equal; expected unique items"])
        #expect(try problems(#"{"Ab": 1}"#, #"{"propertyNames": {"pattern": "^[a-z]+$"}}"#) == [#"$: key "Ab" does not fit "propertyNames""#])
        #expect(try problems("[1, 2]", #"{"contains": {"type": "string"}}"#) == [#"$: contains no item that matches "contains""#])
        #expect(try problems("[1, \"x\"]", #"{"prefixItems": [{"type": "integer"}], "items": false}"#) == ["$[1]: no value is allowed here"])
        #expect(try problems(#"{"a": 1}"#, #"{"dependentRequired": {"a": ["b"]}}"#) == [#"$: key "a" requires key "b""#])
        #expect(try problems("5", #"{"if": {"minimum": 3}, "then": {"multipleOf": 2}}"#) == ["$: expected a multiple of 2, found 5"])
        #expect(try problems(#"{"a": 1, "b": 2}"#, #"{"properties": {"a": true}, "unevaluatedProperties": false}"#) == [#"$.b: no value is allowed here"#])
    }

    @Test func draft4ReadsOpenAPI30Forms() throws {
        #expect(try problems("0", #"{"minimum": 0, "exclusiveMinimum": true}"#, dialect: .draft4) == ["$: expected more than 0, found 0"])
        #expect(try problems("null", #"{"type": "string", "nullable": true}"#, dialect: .draft4) == [])
        // A $ref replaces its siblings in OpenAPI 3.0, not in 3.1.
        let schema = ##"{"$defs": {"s": {"type": "string"}}, "properties": {"a": {"$ref": "#/$defs/s", "maxLength": 1}}}"##
        #expect(try problems(#"{"a": "xy"}"#, schema, dialect: .draft4) == [])
        #expect(try problems(#"{"a": "xy"}"#, schema, dialect: .draft2020) == ["$.a: expected at most 1 characters, found 2"])
    }

    @Test func dateTimesFollowRFC3339() {
        for bad in ["2026-02-31T10:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T10:60:00Z", "2026-01-01T10:00:00+01", "2026-01-01T10:00:00Z\n",
                    "2026-01-01 10:00:00Z", "2026-01-01T10:00:61Z", "2026-01-01T10:00:60Z"] {
            #expect(!StringFormats.holds("date-time", bad), "\(bad) accepted")
        }
        for good in ["2026-01-01t10:00:00z", "2026-01-01T10:00:00.123456789012345Z", "1998-12-31T23:59:60Z", "1998-12-31T15:59:60.123-08:00",
                     "2024-02-29T00:00:00+14:00"] {
            #expect(StringFormats.holds("date-time", good), "\(good) refused")
        }
    }

    @Test func urisEmailsHostsAndAddressesFollowTheirRFCs() {
        for bad in ["https://example.com/a b", "https://example.com/<x>", "https://example.com/{x}", "https://example.com/%zz", "https://example.com/%",
                    "http://example.com:abc/", "abc", "1http://x"] {
            #expect(!StringFormats.holds("uri", bad), "uri \(bad) accepted")
        }
        #expect(StringFormats.holds("uri", "urn:oasis:names:specification:docbook:dtd:xml:4.1.2") && StringFormats.holds("uri-reference", "../a?b#c"))
        for bad in [".jane@example.com", "jane.@example.com", "ja..ne@example.com", "jane@exa mple.com", "jane@[127.0.0.300]"] {
            #expect(!StringFormats.holds("email", bad), "email \(bad) accepted")
        }
        for good in [#""jane doe"@example.com"#, "jane@[127.0.0.1]", "jane@[IPv6:::1]", "jane+tag@example.com"] {
            #expect(StringFormats.holds("email", good), "email \(good) refused")
        }
        #expect(!StringFormats.holds("hostname", "-a.example.com") && !StringFormats.holds("hostname", "xn--X") && StringFormats.holds("hostname", "xn--ll-0ea"))
        #expect(!StringFormats.holds("ipv4", "01.2.3.4") && StringFormats.holds("ipv6", "1::d6:192.168.0.1") && !StringFormats.holds("ipv6", "1::2::3"))
        #expect(StringFormats.holds("uuid", "3FA85F64-5717-4562-B3FC-2C963F66AFA6") && !StringFormats.holds("uuid", "3fa85f645717-4562-b3fc-2c963f66afa6"))
    }

    @Test func patternsFollowECMA262AndUnusableOnesAreNamed() throws {
        #expect(try problems(#""١٢""#, #"{"pattern": "^\\d+$"}"#) == [#"$: "١٢" does not match the pattern ^\d+$"#])
        let compiler = SchemaCompiler(dialect: .draft2020)
        let schema = compiler.compile(try JSONParser.parse(#"{"pattern": "(?=a)b"}"#), location: "/components/schemas/X")
        #expect(schema.validate(.string("anything")) == [])
        #expect(compiler.warnings.count == 1 && compiler.warnings[0].contains("/components/schemas/X/pattern") && compiler.warnings[0].contains("lookaround"), "\(compiler.warnings)")
    }

    @Test func messagesStayOnOneLine() throws {
        let found = try problems(#"{"a\nb": 1}"#, #"{"additionalProperties": false, "required": ["x\ny"]}"#)
        #expect(found == [#"$: missing required key "x\ny""#, #"$["a\nb"]: unexpected key "a\nb""#])
        #expect(found.allSatisfy { !$0.contains("\n") })
    }

    @Test func aBranchingSchemaOrACatastrophicPatternStopsWithinItsBudget() throws {
        let compiler = SchemaCompiler(dialect: .draft2020)
        let recursive = try JSONParser.parse(##"{"$defs": {"A": {"anyOf": [{"$ref": "#/$defs/A"}, {"$ref": "#/$defs/A"}, {"type": "integer"}]}}, "$ref": "#/$defs/A"}"##)
        let schema = compiler.compile(recursive, base: "urn:test", register: true)
        let found = schema.validate(.string("x"), budget: SchemaBudget(steps: 100_000))
        #expect(found.count == 1 && found[0].message.hasPrefix("checking stopped"), "\(found)")
        let redos = SchemaValidator().validate(.string(String(repeating: "a", count: 30) + "!"), against: try JSONParser.parse(#"{"pattern": "^(a+)+$"}"#))
        #expect(redos.count == 1 && redos[0].message.contains("does not match"))
    }
}
