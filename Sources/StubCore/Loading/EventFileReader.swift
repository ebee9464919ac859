/// Reads the streams of stub files with the usual `file: path: message` problems: an
/// `.events.json` list of server-sent events, or an `.ndjson` file's lines.
struct EventFileReader {
    let reader: ValueReader

    static let eventKeys = ["data", "event", "id", "retry", "after"]

    /// The events of an `.events.json` file.
    func serverSentEvents(_ bytes: [UInt8], keepOpen: Bool) -> EventStream? {
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            reader.log.add(StubProblem(file: reader.file, location: .position(line: error.line, column: error.column), message: "not valid JSON: \(error.message)"))
            return nil
        }
        guard case .array(let items) = json else {
            reader.fail("", "expected an array of events like {\"data\": \"hello\", \"after\": {\"ms\": 100}}, found \(json.kindDescription)")
            return nil
        }
        if items.isEmpty { reader.fail("", "expected at least one event, found an empty array") }
        var events: [EventStream.Event] = []
        for (index, item) in items.enumerated() {
            if let event = serverSentEvent(item, at: "[\(index)]") { events.append(event) }
        }
        return EventStream(format: .serverSentEvents, events: events, keepOpen: keepOpen)
    }

    private func serverSentEvent(_ item: JSONValue, at path: String) -> EventStream.Event? {
        guard let members = reader.object(item, at: path, allowed: EventFileReader.eventKeys) else { return nil }
        var data: String?, name: String?, id: String?, retry: Int?, after: DelaySpec?
        let problemsBefore = reader.log.problems.count
        for (key, value) in members {
            let p = ValueReader.join(path, key)
            switch key {
            case "data":
                if case .string(let s) = value { data = s } else { data = value.serialized() }
            case "event": name = singleLine(value, at: p)
            case "id":
                if case .number = value { id = value.scalarText } else { id = singleLine(value, at: p) }
                if id?.contains("\0") == true { reader.fail(p, "expected an id without NUL") }
            case "retry": retry = reader.int(value, at: p, in: 0...Limits.maxDurationMs)
            default: after = reader.delay(value, at: p)
            }
        }
        if data == nil { reader.fail(path, "missing \"data\"; expected the event's data, a string or any JSON") }
        guard let data, reader.log.problems.count == problemsBefore else { return nil }
        return EventStream.Event(bytes: EventStream.frame(data: data, event: name, id: id, retry: retry), id: id, after: after)
    }

    private func singleLine(_ value: JSONValue, at path: String) -> String? {
        guard let text = reader.string(value, at: path) else { return nil }
        if text.contains("\n") || text.contains("\r") { reader.fail(path, "expected one line, found a line break") }
        return text
    }

    /// The lines of an `.ndjson` file, each sent `every` after the one before (the first at once).
    func ndjsonLines(_ bytes: [UInt8], every: DelaySpec?, keepOpen: Bool) -> EventStream? {
        var events: [EventStream.Event] = []
        for (index, line) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let trimmed = Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line[...])
            if trimmed.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do { _ = try JSONParser.parse(trimmed) } catch {
                reader.log.add(StubProblem(file: reader.file, location: .position(line: index + 1, column: error.column),
                                           message: "not valid JSON on this line: \(error.message)"))
                continue
            }
            events.append(EventStream.Event(bytes: trimmed + [UInt8(ascii: "\n")], id: nil, after: events.isEmpty ? nil : every))
        }
        if events.isEmpty { reader.fail("", "expected at least one JSON line") }
        return EventStream(format: .ndjson, events: events, keepOpen: keepOpen)
    }
}
