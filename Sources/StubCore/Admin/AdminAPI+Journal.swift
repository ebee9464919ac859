#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `/__stubd/journal` (first named `/__stubd/requests`, still answered): the journal, filtered, and its count.
extension AdminAPI {
    func filter(from request: StubRequest) -> Result<JournalFilter, ReplyFailure> {
        var filter = JournalFilter(route: request.queryValue("route"), method: request.queryValue("method"), path: request.queryValue("path"))
        filter.operation = request.queryValue("operation")
        switch request.queryValue("scope") {
        case nil, "session": break
        case "all": filter.allSessions = true
        case let other?:
            return .failure(ReplyFailure(.error(400, "invalid scope", [("value", .string(other)),
                                                                       ("expected", .string("all (every session's requests) or session"))])))
        }
        if let since = request.queryValue("since") {
            if let id = Int(since) { filter.sinceID = id } else if let date = ISO8601.parse(since) { filter.sinceTime = date } else {
                return .failure(ReplyFailure(.error(400, "invalid since", [("value", .string(since)), ("expected", .string("an entry id or an ISO 8601 time"))])))
            }
        }
        if let limit = request.queryValue("limit") {
            guard let n = Int(limit), n >= 0 else {
                return .failure(ReplyFailure(.error(400, "invalid limit", [("value", .string(limit)), ("expected", .string("a whole number ≥ 0"))])))
            }
            filter.limit = n
        }
        return .success(filter)
    }

    func journal(_ request: StubRequest, session: String?) -> Reply {
        switch filter(from: request) {
        case .failure(let f): return f.reply
        case .success(let filter):
            if let fleet = fleetJournal(session: session, filter: filter) {
                return .json(200, .object([("requests", .array(fleet)), ("count", .number(Double(fleet.count)))]))
            }
            let entries = control.journal(session: session, filter: filter)
            return .json(200, .object([("requests", .array(entries.map { AdminAPI.entryJSON($0) })),
                                       ("count", .number(Double(entries.count)))]))
        }
    }

    func count(_ request: StubRequest, session: String?) -> Reply {
        switch filter(from: request) {
        case .failure(let f): return f.reply
        case .success(var filter):
            filter.limit = nil
            if let fleet = fleetJournal(session: session, filter: filter) { return .json(200, .object([("count", .number(Double(fleet.count)))])) }
            return .json(200, .object([("count", .number(Double(control.journal(session: session, filter: filter).count)))]))
        }
    }

    /// Query parameters as an object: a string per name, or an array of every value, in order,
    /// where a name repeats (`ids[]=1&ids[]=2` → `{"ids[]": ["1", "2"]}`).
    static func queryJSON(_ query: [(name: String, value: String)]) -> JSONValue {
        var names: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in query {
            if values[name] == nil { names.append(name) }
            values[name, default: []].append(value)
        }
        return .object(names.map { name in
            let all = values[name] ?? []
            return (name, all.count == 1 ? .string(all[0]) : .array(all.map { .string($0) }))
        })
    }

    /// One journal entry as JSON (`JournalEntryWriter` writes it). Bodies are text when they are
    /// UTF-8, else base64. An unmatched request (404, 405) lists its near misses and why each did
    /// not match.
    static func entryJSON(_ entry: RequestJournal.Entry) -> JSONValue {
        (try? JSONParser.parse(JournalEntryWriter.bytes(entry.record, id: entry.id))) ?? .null
    }

    /// Why the variant was chosen: `{"by": "when"}`, `{"by": "sequence", "step": 2, "of": 3}`.
    static func selectionJSON(_ r: RequestRecord) -> JSONValue {
        guard let by = r.selection else { return .null }
        var members: [(key: String, value: JSONValue)] = [("by", .string(by))]
        if let step = r.sequenceStep { members += [("step", .number(Double(step.step))), ("of", .number(Double(step.of)))] }
        return .object(members)
    }
}
