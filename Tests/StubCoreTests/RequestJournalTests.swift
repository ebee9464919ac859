import StubCore
import Testing

@Suite struct RequestJournalTests {
    @Test func staysBoundedUnder100000Requests() {
        var journal = RequestJournal(capacity: 1000)
        for i in 0..<100_000 {
            journal.append(RequestRecord(request: StubRequest(method: "GET", path: "/\(i)"), session: nil, routeID: nil, variant: nil,
                                         status: 200, delayMs: 0, fault: nil, elapsedMs: 0, bodyBytes: 0))
        }
        let entries = journal.entries
        #expect(entries.count == 1000)
        #expect(entries.first?.record.request.path == "/99000")
        #expect(entries.last?.record.request.path == "/99999")
        #expect(entries.last?.id == 100_000)
    }

    @Test func cutsLongBodies() {
        var journal = RequestJournal(capacity: 2)
        let body = [UInt8](repeating: 65, count: RequestJournal.bodyLimit + 10)
        journal.append(RequestRecord(request: StubRequest(method: "POST", path: "/", body: body), session: nil, routeID: nil, variant: nil,
                                     status: 200, delayMs: 0, fault: nil, elapsedMs: 0, bodyBytes: body.count))
        #expect(journal.entries.first?.record.request.body.count == RequestJournal.bodyLimit)
        #expect(journal.entries.first?.record.bodyBytes == body.count)
    }

    @Test func sequencesAdvanceThenFallBackToTheStickyVariant() throws {
        let control = StubControl(journalSize: 10)
        let route = Route(id: "r", service: nil, name: "r", method: "GET", template: PathTemplate("/r"),
                          variants: ["200", "500", "503"].map { Variant(name: $0, status: Int($0)!, headers: [], body: []) }, defaultIndex: 0)
        try control.setOverride(RouteOverride(variant: "500", sequence: ["503", "200"]), for: route, session: "s")
        let steps = (0..<4).map { _ in control.decision(forRoute: "r", session: "s", advance: true)?.variant }
        #expect(steps == ["503", "200", "500", "500"])
        #expect(control.decision(forRoute: "r", session: nil, advance: true) == nil)
        #expect(throws: ControlError.unknownVariant(route: "r", variant: "404", known: ["200", "500", "503"])) {
            try control.setOverride(RouteOverride(sequence: ["404"]), for: route, session: nil)
        }
    }
}

/// What a fleet's store reads from the local journal: the entries after an id.
@Suite struct RequestJournalCursorTests {
    static func record(_ path: String) -> RequestRecord {
        RequestRecord(request: StubRequest(method: "GET", path: path), session: nil, routeID: nil, variant: nil, status: 200, delayMs: 0,
                      fault: nil, elapsedMs: 0, bodyBytes: 0)
    }

    @Test func entriesAfterAnIdAreTheNewerOnesInOrderAcrossTheRingsWrap() {
        var journal = RequestJournal(capacity: 3)
        #expect(journal.entries(after: 0).isEmpty && journal.firstID == nil)
        for i in 1...5 { journal.append(RequestJournalCursorTests.record("/\(i)")) }
        #expect(journal.firstID == 3 && journal.lastID == 5)
        #expect(journal.entries(after: 3).map(\.record.path) == ["/4", "/5"])
        #expect(journal.entries(after: 0).map(\.id) == [3, 4, 5])
        #expect(journal.entries(after: 5).isEmpty)
        journal.removeAll { $0.id == 4 }
        #expect(journal.entries(after: 2).map(\.id) == [3, 5])
    }
}
