import StubCore
import Testing

/// Records, plans and packed requests are values: copies share storage until one changes, and a
/// change never shows through another copy. The journal moves records in and hands back the
/// one it drops.
@Suite struct RequestValueTests {
    func record(_ path: String, status: Int = 200) -> RequestRecord {
        RequestRecord(request: StubRequest(method: "GET", path: path), session: nil, routeID: "r", variant: "200", status: status,
                      delayMs: 0, fault: nil, elapsedMs: 1, bodyBytes: 0)
    }

    @Test func aChangedRecordCopyLeavesTheOriginal() {
        let original = record("/a")
        var copy = original
        copy.status = 503
        copy.session = "s"
        copy.clientGone = true
        copy.request = StubRequest(method: "POST", path: "/b")
        #expect(original.status == 200 && original.session == nil && !original.clientGone)
        #expect(original.request.path == "/a" && original.method == "GET")
        #expect(copy.status == 503 && copy.session == "s" && copy.clientGone && copy.path == "/b" && copy.method == "POST")
    }

    @Test func aChangedPlanCopyLeavesTheOriginal() {
        let original = ResponsePlan.reply(Reply(status: 200), routeID: "r")
        var copy = original
        copy.status = 503
        copy.routeID = "other"
        copy.delayMs = 250
        copy.hold = true
        copy.contract = []
        #expect(original.status == 200 && original.routeID == "r" && original.delayMs == 0 && !original.hold && original.contract == nil)
        #expect(copy.status == 503 && copy.routeID == "other" && copy.delayMs == 250 && copy.hold && copy.contract?.isEmpty == true)
    }

    @Test func theJournalHandsBackTheEntryItDrops() {
        var journal = RequestJournal(capacity: 2)
        #expect(journal.append(record("/0")) == nil)
        #expect(journal.append(record("/1")) == nil)
        let dropped = journal.append(record("/2"))
        #expect(dropped?.id == 1 && dropped?.record.path == "/0")
        #expect(journal.entries.map(\.record.path) == ["/1", "/2"])
        #expect(journal.append(record("/3"))?.record.path == "/1")
        #expect(journal.entries.map(\.id) == [3, 4])
    }

    func pack(capacity: Int, path: String = "/p", body: [UInt8] = Array("hello".utf8), query: [(String, String)] = [("q", "1"), ("__delay", "5"), ("q", "")],
              headers: [(String, String)] = [("Host", "example"), ("X-Stub-Session", "s1")]) -> PackedRequest? {
        PackedRequest.pack(capacity: capacity, method: "POST", path: path, scheme: .https, body: body, bodyLimit: 3) { writer in
            for (name, value) in query {
                Array(name.utf8).withUnsafeBytes { n in Array(value.utf8).withUnsafeBytes { v in writer.addQuery(name: n, value: v) } }
            }
            for (name, value) in headers {
                Array(name.utf8).withUnsafeBytes { n in Array(value.utf8).withUnsafeBytes { v in writer.addHeader(name: n, value: v) } }
            }
        }
    }

    @Test func aPackedRequestReadsBackWhatWasWritten() throws {
        let packed = try #require(pack(capacity: 200))
        #expect(packed.queryValues("q") == ["1", ""])
        #expect(packed.queryValue("__delay") == "5")
        #expect(packed.header("x-stub-session") == "s1")
        #expect(packed.header("Host") == "example")
        #expect(packed.body == Array("hel".utf8))
        #expect(packed.mayCarryControls)
        let decoded = packed.decoded()
        #expect(decoded.query.map(\.name) == ["q", "q"])
        #expect(decoded.headers.count == 2 && decoded.method == "POST" && decoded.path == "/p" && decoded.scheme == .https)
    }

    /// The path is copied in ahead of the pairs (it is not kept as a string): a long one, with
    /// bytes that are not ASCII, reads back whole and leaves the pairs after it intact.
    @Test func aPackedRequestKeepsItsPathAheadOfThePairs() throws {
        let path = "/api/v1/orgs/caf\u{E9}-\u{1F600}/repositories/" + String(repeating: "x", count: 300)
        let packed = try #require(pack(capacity: 200, path: path))
        #expect(packed.path == path)
        #expect(packed.decoded().path == path)
        #expect(packed.queryValues("q") == ["1", ""])
        #expect(packed.header("Host") == "example")
        #expect(packed.body == Array("hel".utf8))
        #expect(packed.decoded(path: "/scoped").path == "/scoped")
    }

    @Test func aPackedRequestNotesControlNamesAsItIsWritten() {
        #expect(pack(capacity: 200, query: [("q", "1")], headers: [("Host", "h")])?.mayCarryControls == false)
        #expect(pack(capacity: 200, query: [("_q", "1")], headers: [("X-Stubby", "1"), ("X-Stub", "1")])?.mayCarryControls == false)
        #expect(pack(capacity: 200, query: [("q", "1"), ("__variant", "x")], headers: [("Host", "h")])?.mayCarryControls == true)
        #expect(pack(capacity: 200, query: [], headers: [("Host", "h"), ("x-STUB-fault", "reset")])?.mayCarryControls == true)
    }

    @Test func aPackedRequestThatDoesNotFitIsNotMade() {
        // 38 bytes of names and values, 6 more per pair, 3 of body. (The buffer may come out a
        // little larger than asked for, so only a clear shortfall is tested.)
        #expect(pack(capacity: 38 + 5 * PackedRequest.pairOverhead + 3) != nil)
        #expect(pack(capacity: 40) == nil)
        #expect(pack(capacity: 10) == nil)
    }
}

/// The GraphQL request reader and the document scanner behind operation routing.
@Suite struct GraphQLRequestTests {
    @Test(arguments: [
        ("query GetUser { user { id } }", "GetUser"),
        ("# query Decoy\nmutation Save($query: String = \"query Fake\") { save(q: $query) }", "Save"),
        ("\"\"\"\nquery InDescription\n\"\"\"\nsubscription OnEvent { event }", "OnEvent"),
        ("fragment F on User { id } query Q { ...F }", "Q"),
        ("{ me { query } } query Later { x }", "Later"),
        ("{ me { id } }", nil),
        ("query ($id: ID) { user(id: $id) { id } }", nil),
    ] as [(String, String?)])
    func theFirstNamedOperationIsFound(document: String, name: String?) {
        #expect(GraphQLDocument.firstOperationName(in: document) == name)
    }

    @Test func theNameIsFoundWithoutReadingPastIt() {
        // Text that is not GraphQL after the name: found all the same (the rest is never read);
        // the whole list of operations of such a document is empty, as before.
        let broken = "query GetUser { a } ~~~ " + String(repeating: "~", count: 10_000)
        #expect(GraphQLDocument.firstOperationName(in: broken) == "GetUser")
        #expect(GraphQLDocument.operations(in: broken).isEmpty)
        #expect(GraphQLDocument.operations(in: "query A { a } mutation B { b } { c }").map(\.name) == ["A", "B", nil])
    }

    @Test func depthCountsSelectionsOnly() {
        #expect(!GraphQLDocument.nests("{ a { b { c } } }", deeperThan: 3))
        #expect(GraphQLDocument.nests("{ a { b { c { d } } } }", deeperThan: 3))
        let hidden = "{ a(s: \"{{{{\\\"{{\") # {{{{\n b(t: \"\"\"{{{{ \\\"\"\" {{{\"\"\") }"
        #expect(!GraphQLDocument.nests(hidden, deeperThan: 1), "\(hidden)")
    }

    @Test func bodiesBatchesAndQueryStringsAreRead() throws {
        let single = GraphQLRequest.parse(method: "POST", body: Array(#"{"query": "query A { a }", "variables": {"in": {"ids": [1, 2]}}}"#.utf8), query: [])
        guard case .success(.single(let a)) = single else { Issue.record("\(single)"); return }
        #expect(a.operationName == "A" && a.variable("in.ids.1") == "2" && a.variable("in.ids") == "[1,2]" && a.variable("in.none") == nil)
        let batch = GraphQLRequest.parse(method: "POST", body: Array(#"[{"operationName": "A"}, {"query": "mutation B { b }"}]"#.utf8), query: [])
        guard case .success(.batch(let items)) = batch else { Issue.record("\(batch)"); return }
        #expect(items.map(\.operationName) == ["A", "B"])
        let get = GraphQLRequest.parse(method: "GET", body: [], query: [("operationName", "C"), ("variables", #"{"x": true}"#)])
        guard case .success(.single(let c)) = get else { Issue.record("\(get)"); return }
        #expect(c.operationName == "C" && c.variable("x") == "true")
        for (body, message) in [("[]", "an empty batch"), (#"{"variables": 3, "query": "{ a }"}"#, "variables: expected an object"),
                                ("{}", "expected a query or an operationName"), ("3", "expected a JSON object")] {
            guard case .failure(let failure) = GraphQLRequest.parse(method: "POST", body: Array(body.utf8), query: []) else {
                Issue.record("\(body) was read")
                continue
            }
            #expect(failure.message.contains(message), "\(failure.message)")
        }
    }
}

@Suite struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 1000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
    ])
    func knownDigests(text: String, hex: String) {
        #expect(SHA256.hex(text) == hex)
    }
}

@Suite struct PersistedQueriesTests {
    @Test func theStoreStaysWithinItsCountAndBytesOldestFirst() {
        let store = PersistedQueries(capacity: 3, byteCapacity: 100)
        for i in 0..<5 { store.remember("query Q\(i) { a }", hash: "h\(i)") }
        #expect(store.counts.queries == 3)
        #expect(store.query(for: "h0") == nil && store.query(for: "h1") == nil && store.query(for: "h4") == "query Q4 { a }")
        store.remember(String(repeating: "x", count: 90), hash: "big")
        #expect(store.counts.bytes <= 100 && store.query(for: "big") != nil && store.query(for: "h2") == nil)
        store.remember(String(repeating: "y", count: 101), hash: "huge")
        #expect(store.query(for: "huge") == nil)
        for i in 0..<1000 { store.remember("q\(i)", hash: "k\(i)") }
        #expect(store.counts.queries == 3 && store.query(for: "k999") == "q999")
    }
}

/// The scanner accepts exactly what the parser accepts, on well-formed and broken JSON alike.
@Suite struct JSONScannerTests {
    @Test(arguments: [
        #"{}"#, #"[]"#, #"{"a": 1}"#, #" {"a": [1, 2.5e-3, -0, true, false, null, "x\"y\u00e9"]} "#, #""\ud83d\ude00""#,
        #"{"a": }"#, #"{"a" 1}"#, #"{"a": 1,}"#, #"[1,]"#, #"[01]"#, #"[1.]"#, #"[-]"#, #"["\x"]"#, #"["\u12"]"#, #"{"a": tru}"#,
        "[\"a\nb\"]", #"{"a": 1} x"#, #"{"#, #"[[[[]]]]"#, #"{"a": {"b": {"c": [{}]}}}"#, "", " ", #"1e5"#, #""unterminated"#,
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
        String(repeating: "[", count: 511) + String(repeating: "]", count: 511),
        String(repeating: "[", count: 512) + String(repeating: "]", count: 512),
        String(repeating: "[", count: 513) + String(repeating: "]", count: 513),
        "{\"a\":" + String(repeating: "[", count: 511) + String(repeating: "]", count: 511) + "}",
    ])
    func acceptsWhatTheParserAccepts(text: String) {
        let bytes = Array(text.utf8)
        let parsed = (try? JSONParser.parse(bytes)) != nil
        let scanned = JSONScanner(bytes).value(in: 0..<bytes.count) != nil
        #expect(parsed == scanned, "\(text.prefix(40)): parser \(parsed), scanner \(scanned)")
    }

    @Test func valuesAreFoundByDottedPath() {
        let bytes = Array(#"{"input": {"email": "a@b", "tags": ["x", {"k": 2}], "n": null, "e\u0073c": "yes"}}"#.utf8)
        let scanner = JSONScanner(bytes)
        let all = 0..<bytes.count
        #expect(scanner.text(atDotted: "input.email", in: all) == "a@b")
        #expect(scanner.text(atDotted: "input.tags.1.k", in: all) == "2")
        #expect(scanner.text(atDotted: "input.tags", in: all) == #"["x",{"k":2}]"#)
        #expect(scanner.text(atDotted: "input.n", in: all) == nil)
        #expect(scanner.text(atDotted: "input.esc", in: all) == "yes")
        #expect(scanner.text(atDotted: "input.missing", in: all) == nil)
        #expect(scanner.text(atDotted: "input.tags.9", in: all) == nil)
    }
}

/// What an attacker sends to a GraphQL endpoint: truncated, mutated and random bodies and
/// documents are answered with a failure or a request, never a crash, and agree with JSONParser
/// on whether the body is JSON at all.
@Suite struct GraphQLHostileInputTests {
    @Test func truncatedMutatedAndRandomBodiesNeverCrash() {
        var rng = SystemRandomNumberGenerator()
        let valid = Array(#"{"operationName": "GetUser", "query": "query GetUser($id: ID!) { user(id: $id) { id } } # c \"s\"", "variables": {"id": "1", "ids": [1, 2.5e3, {"a": null}]}, "extensions": {"persistedQuery": {"version": 1, "sha256Hash": "ab"}}}"#.utf8)
        var inputs: [[UInt8]] = (0...valid.count).map { Array(valid.prefix($0)) }
        for _ in 0..<2000 {
            var mutated = valid
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                mutated[Int.random(in: 0..<mutated.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng)
            }
            inputs.append(mutated)
            inputs.append((0..<Int.random(in: 0...64, using: &rng)).map { _ in Array("{}[]\",:\\u0123 aenrtlfs".utf8).randomElement(using: &rng)! })
        }
        var accepted = 0
        for body in inputs {
            let result = GraphQLRequest.parse(method: "POST", body: body, query: [])
            if case .success(.single(let request)) = result {
                accepted += 1
                _ = request.variable("ids.2.a")
                _ = request.flatVariables()
                _ = request.query.map { GraphQLDocument.firstOperationName(in: $0) }
                #expect((try? JSONParser.parse(body)) != nil, "accepted a body the parser refuses: \(String(decoding: body, as: UTF8.self))")
            }
            _ = GraphQLDocument.firstOperationName(in: String(decoding: body, as: UTF8.self))
            let scanned = JSONScanner(body).value(in: 0..<body.count) != nil
            #expect(scanned == ((try? JSONParser.parse(body)) != nil), "scanner and parser differ on: \(String(decoding: body, as: UTF8.self))")
        }
        #expect(accepted > 0)
    }
}
