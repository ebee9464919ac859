/// What a route gives each of its variants while they load.
struct VariantContext {
    let reader: ValueReader
    let parameters: [String]
    let baseHeaders: [HTTPHeader]
    let envelope: ErrorEnvelope?
    let delay: DelaySpec?
    let throttle: Int?
    var validators = CacheValidatorDefaults()
    /// True in a route with `"websocket"`, where a variant may hold a conversation.
    var isWebSocket = false
    /// The route's folder (absolute, and as messages name it), for message files.
    var routeFolder = (path: "", relative: "")
    /// True in a subscription operation's route, where a variant may hold `next` and `complete`.
    var isSubscription = false

    func variant(name: String, json: JSONValue?, file: BodyFile?) -> Variant? {
        let path = ValueReader.join("variants", name)
        guard BodyFile.isVariantName(name) else {
            reader.fail(path, "expected a variant name of letters, digits, '-', '_' or '.', found \"\(name)\"")
            return nil
        }
        var draft = VariantDraft(name: name, file: file, delay: delay, throttle: throttle)
        (draft.etag, draft.lastModified) = (validators.etag, validators.lastModified)
        if let json, let members = reader.object(json, at: path, allowed: VariantKey.allCases.map(\.rawValue)) {
            for (key, value) in members {
                guard let known = VariantKey(rawValue: key) else { continue }
                take(known, value, at: ValueReader.join(path, key), into: &draft)
            }
        }
        renderError(&draft, at: path)
        var template: ResponseTemplate?
        if draft.isTemplate {
            template = makeTemplate(draft.body ?? [], contentType: draft.contentType, file: file, at: ValueReader.join(path, "template"))
        } else if let problem = file?.jsonError {
            reader.log.add(problem)
        }
        if draft.conversation != nil {
            if let status = draft.status, status != 101 {
                reader.fail(path, "expected no status for a conversation (its handshake is answered with 101), found \(status)")
            }
            draft.status = 101
        }
        var subscription: SubscriptionScript?
        // A subscription's answers travel over the WebSocket, its errors in GraphQL's shape: its
        // variants need no status.
        if isSubscription && draft.status == nil { draft.status = 200 }
        if let next = draft.next {
            subscription = SubscriptionScript(events: next, complete: draft.complete ?? true)
        } else if draft.complete != nil {
            reader.fail(ValueReader.join(path, "complete"), "expected complete only beside next")
        }
        guard let finalStatus = draft.status ?? (draft.fault != nil ? 0 : nil) else {
            reader.fail(path, "expected a status: start the name with one (\"401-\(name)\") or add \"status\"")
            return nil
        }
        let stream = makeStream(file: file, every: draft.every, keepOpen: draft.keepOpen, at: path)
        if draft.cutAfter != nil && stream == nil {
            reader.fail(ValueReader.join(path, "fault"), "expected cutAfter only on a stream (an .events.json file, or an .ndjson file with \"stream\")")
        }
        var merged: [HTTPHeader] = []
        if let contentType = draft.contentType, draft.body != nil { merged.set("Content-Type", contentType) }
        if let stream, stream.format == .serverSentEvents { merged.set("Cache-Control", "no-cache") }
        for h in baseHeaders + draft.headers { merged.set(h.name, h.value) }
        setValidators(draft, template: template, stream: stream, into: &merged, at: path)
        return Variant(name: name, status: finalStatus, headers: merged, body: draft.body ?? [], condition: draft.condition,
                       delay: draft.delay, throttleBytesPerSecond: draft.throttle, fault: draft.fault, template: template,
                       description: draft.description, stream: stream, cutAfter: draft.cutAfter, streamReset: draft.streamReset,
                       bodySource: draft.body == nil ? nil : draft.bodySource, conversation: draft.conversation, subscription: subscription,
                       memory: memory(draft, headers: merged, at: path))
    }

    /// The variant's memory: `when.state`, `then`, and (in a template) headers with placeholders.
    private func memory(_ draft: VariantDraft, headers: [HTTPHeader], at path: String) -> VariantMemory? {
        var templated: [(name: String, value: ResponseTemplate)] = []
        if draft.isTemplate {
            for header in headers where header.value.contains("{{") {
                if let t = reader.template(header.value, at: ValueReader.join(ValueReader.join(path, "headers"), header.name)) { templated.append((header.name, t)) }
            }
        }
        guard !draft.stateCondition.isEmpty || draft.changes != nil || !templated.isEmpty else { return nil }
        return VariantMemory(condition: draft.stateCondition, changes: draft.changes, headers: templated)
    }

    /// Reads one key of a variant's object into `draft`. Every key has its own case, so a new
    /// key cannot fall into another's reading.
    private func take(_ key: VariantKey, _ value: JSONValue, at p: String, into draft: inout VariantDraft) {
        switch key {
        case .status:
            guard let s = reader.int(value, at: p, in: 100...599) else { return }
            if let fromName = BodyFile.leadingStatus(draft.name), fromName != s {
                reader.fail(p, "expected the status the name gives (\(fromName)), found \(s)")
            }
            draft.status = s
        case .headers: draft.headers = reader.headers(value, at: p) ?? []
        case .body:
            if let file = draft.file { reader.fail(p, "expected either \(file.relative) or an inline body, found both") }
            draft.body = Array(value.serialized(pretty: true).utf8)
            draft.contentType = "application/json; charset=utf-8"
            draft.bodySource = "\(reader.file): \(p)"
        case .error: draft.errorValues = errorObject(value, at: p)
        case .when: (draft.condition, draft.stateCondition) = reader.conditions(value, at: p, parameters: parameters)
        case .then: draft.changes = reader.stateChanges(value, at: p)
        case .description: draft.description = reader.string(value, at: p)
        case .template:
            guard case .bool(let flag) = value else { return reader.fail(p, "expected true or false, found \(value.kindDescription)") }
            draft.isTemplate = flag
        case .delay: draft.delay = reader.delay(value, at: p) ?? draft.delay
        case .throttle: draft.throttle = reader.throttle(value, at: p) ?? draft.throttle
        case .stream:
            guard let members = reader.object(value, at: p, allowed: ["every"]), let spec = members.first?.value else {
                if case .object = value { reader.fail(p, "expected {\"every\": a delay object}") }
                return
            }
            draft.every = reader.delay(spec, at: ValueReader.join(p, "every"))
        case .etag:
            draft.etag = reader.entityTag(value, at: p)
            draft.ownValidators = true
        case .lastModified:
            draft.lastModified = reader.lastModified(value, at: p)
            draft.ownValidators = true
        case .keepOpen:
            guard case .bool(let flag) = value else { return reader.fail(p, "expected true or false, found \(value.kindDescription)") }
            draft.keepOpen = flag
        case .conversation:
            guard isWebSocket else {
                return reader.fail(p, "expected a conversation only in a WebSocket route; add \"websocket\": {} to route.json")
            }
            draft.conversation = ConversationReader(reader: reader, folder: routeFolder).conversation(value, at: p)
        case .next:
            guard isSubscription else {
                return reader.fail(p, "expected next only in a subscription operation's route (\"kind\": \"subscription\")")
            }
            draft.next = subscriptionEvents(value, at: p)
        case .complete:
            guard case .bool(let flag) = value else { return reader.fail(p, "expected true or false, found \(value.kindDescription)") }
            draft.complete = flag
        case .fault:
            if case .object = value {
                draft.cutAfter = cutAfterFault(value, at: p)
            } else {
                let read = reader.fault(value, at: p)
                draft.fault = read?.fault
                draft.streamReset = read?.reset
            }
        }
    }

    /// `ETag` and `Last-Modified` from `etag` and `lastModified`; `etag: auto` is made from the
    /// body's bytes (the first 16 hex digits of their SHA-256), so it changes when the body does.
    /// The variant's own keys beat the headers; the headers (a capture's) beat the route's keys.
    private func setValidators(_ draft: VariantDraft, template: ResponseTemplate?, stream: EventStream?, into headers: inout [HTTPHeader], at path: String) {
        let givenTag = headers.contains { $0.name.lowercased() == "etag" }
        let givenDate = headers.contains { $0.name.lowercased() == "last-modified" }
        if let tag = draft.etag, draft.ownValidators || !givenTag {
            if tag != "auto" {
                headers.set("ETag", tag)
            } else if template != nil || stream != nil {
                reader.fail(ValueReader.join(path, "etag"), "expected a fixed body for \"auto\", found a \(template != nil ? "template" : "stream"), whose bytes differ per request; give the tag itself")
            } else {
                let hex = SHA256.digest(draft.body ?? []).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
                headers.set("ETag", "\"\(hex)\"")
            }
        }
        if let date = draft.lastModified, draft.ownValidators || !givenDate { headers.set("Last-Modified", date) }
        // With a validator, a client may resume a download (URLSession's resume data): say that
        // ranges are served.
        let validated = headers.contains { ["etag", "last-modified"].contains($0.name.lowercased()) }
        if validated, stream == nil, !headers.contains(where: { $0.name.lowercased() == "accept-ranges" }) { headers.set("Accept-Ranges", "bytes") }
    }

    /// An `error` object rendered through the service's envelope into the body.
    private func renderError(_ draft: inout VariantDraft, at path: String) {
        guard let values = draft.errorValues else { return }
        if draft.body != nil {
            reader.fail(ValueReader.join(path, "error"), "expected either an error or a body, found both")
        } else if let envelope {
            for name in envelope.variables where name != "status" && values[name] == nil {
                reader.fail(ValueReader.join(path, "error"), "missing \"\(name)\"; the service's errorEnvelope uses {{\(name)}}")
            }
            draft.body = Array(envelope.render(values, status: draft.status ?? 0).serialized(pretty: true).utf8)
            draft.contentType = "application/json; charset=utf-8"
            draft.bodySource = "\(reader.file): \(ValueReader.join(path, "error"))"
        } else {
            reader.fail(ValueReader.join(path, "error"), "expected an errorEnvelope in the service's _service.json to render this error, found none")
        }
    }

    /// The stream of an `.events.json` file, or of an `.ndjson` file with `"stream"`.
    private func makeStream(file: BodyFile?, every: DelaySpec?, keepOpen: Bool, at path: String) -> EventStream? {
        let events = EventFileReader(reader: ValueReader(file: file?.relative ?? reader.file, log: reader.log))
        if let file, file.isEvents { return events.serverSentEvents(file.bytes, keepOpen: keepOpen) }
        if let file, file.relative.lowercased().hasSuffix(".ndjson"), every != nil { return events.ndjsonLines(file.bytes, every: every, keepOpen: keepOpen) }
        if every != nil { reader.fail(ValueReader.join(path, "stream"), "expected an .ndjson body file to stream line by line") }
        if keepOpen { reader.fail(ValueReader.join(path, "keepOpen"), "expected keepOpen only on a stream (an .events.json file, or an .ndjson file with \"stream\")") }
        return nil
    }

    /// `{"cutAfter": N}`: the stream's connection is reset after N events.
    private func cutAfterFault(_ value: JSONValue, at path: String) -> Int? {
        guard let members = reader.object(value, at: path, allowed: ["cutAfter"]), let n = members.first?.value else {
            if case .object(let m) = value, m.isEmpty { reader.fail(path, "expected {\"cutAfter\": N} or a fault name") }
            return nil
        }
        return reader.int(n, at: ValueReader.join(path, "cutAfter"), in: 0...1_000_000)
    }

    /// Parses a templated body; a JSON body must be valid JSON once each placeholder is filled.
    private func makeTemplate(_ body: [UInt8], contentType: String?, file: BodyFile?, at path: String) -> ResponseTemplate? {
        let isJSON = contentType?.contains("json") == true
        // Problems are reported against the body file when there is one: that is where the placeholders are.
        let where_ = ValueReader(file: file?.relative ?? reader.file, log: reader.log)
        let template: ResponseTemplate
        switch ResponseTemplate.parse(body, escapesJSON: isJSON) {
        case .success(let t): template = t
        case .failure(let error):
            where_.fail(path, error.message)
            return nil
        }
        var ok = true
        for name in template.pathParameters where !parameters.contains(name) {
            where_.fail(path, "expected {{path.NAME}} to name a path parameter of the route (\(parameters.isEmpty ? "it has none" : parameters.joined(separator: ", "))), found {{path.\(name)}}")
            ok = false
        }
        if isJSON {
            do { _ = try JSONParser.parse(template.sample) } catch {
                where_.fail(path, "expected valid JSON once each placeholder is filled (tried 0), found: \(error.message) on line \(error.line)")
                ok = false
            }
        }
        return ok ? template : nil
    }

    private func errorObject(_ value: JSONValue, at path: String) -> [String: String]? {
        guard let members = reader.object(value, at: path, allowed: ["title", "message", "code"]) else { return nil }
        var values: [String: String] = [:]
        for (key, v) in members {
            if let s = reader.string(v, at: ValueReader.join(path, key)) { values[key] = s }
        }
        return values
    }
}
