/// `/__stubd/routes`: the route table with current overrides, and setting or clearing them.
extension AdminAPI {
    func routes(session: String?) -> Reply {
        let overrides = control.overrides(session: session)
        let list = host.currentCatalog.routes.map { route in
            routeJSON(route, override: overrides[route.id], held: control.heldCount(routeID: route.id, session: session))
        }
        return .json(200, .object([("routes", .array(list))]))
    }

    func routeJSON(_ route: Route, override: RouteOverride?, held: Int) -> JSONValue {
        .object([
            ("id", .string(route.id)),
            ("service", route.service.map { .string($0) } ?? .null),
            ("name", .string(route.name)),
            ("method", .string(route.method)),
            ("path", .string(route.fullPath)),
            ("operation", route.operation.map { .string($0) } ?? .null),
            ("kind", route.operationKind.map { .string($0) } ?? .null),
            ("variants", .array(route.variants.map { v in
                .object([("name", .string(v.name)), ("status", .number(Double(v.status))), ("fault", v.fault.map { .string($0.rawValue) } ?? .null),
                         ("description", v.description.map { .string($0) } ?? .null), ("when", v.condition.map(AdminAPI.conditionJSON) ?? .null)])
            })),
            ("default", .string(route.defaultVariant.name)),
            ("override", override?.json ?? .null),
            ("held", .number(Double(held))),
        ])
    }

    /// A variant's `when`, as route.json gives it (only the parts that test something).
    static func conditionJSON(_ c: RequestCondition) -> JSONValue {
        let parts: [(String, [String: String])] = [("path", c.path), ("query", c.query), ("headers", c.headers), ("body", c.body),
                                                   ("variables", c.variables)]
        return .object(parts.filter { !$0.1.isEmpty }.map { name, values in
            (name, .object(values.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        })
    }

    func lookup(_ id: String) -> Result<Route, ControlError> {
        Result { () throws(ControlError) in try host.currentCatalog.requireRoute(id: id) }
    }

    func showOverride(_ id: String, session: String?) -> Reply {
        switch lookup(id) {
        case .success(let route):
            return .json(200, routeJSON(route, override: control.override(routeID: id, session: session), held: control.heldCount(routeID: id, session: session)))
        case .failure(let error): return reply(for: error)
        }
    }

    func putOverride(_ id: String, body: [UInt8], session: String?) -> Reply {
        let route: Route
        switch lookup(id) {
        case .success(let r): route = r
        case .failure(let error): return reply(for: error)
        }
        let parsed: RouteOverride
        switch AdminOverrideParser.parse(body) {
        case .success(let o): parsed = o
        case .failure(let f): return f.reply
        }
        do {
            try control.setOverride(parsed, for: route, session: session, requireStore: true)
        } catch {
            return reply(for: error)
        }
        return .json(200, routeJSON(route, override: control.override(routeID: id, session: session), held: control.heldCount(routeID: id, session: session)))
    }

    /// `POST /__stubd/routes/{route}/release` with an optional `{"count": N}`: the oldest N held
    /// requests (all without a count) go on to their responses.
    func release(_ id: String, body: [UInt8], session: String?) -> Reply {
        if case .failure(let error) = lookup(id) { return reply(for: error) }
        var count: Int?
        if !body.isEmpty {
            let log = ProblemLog()
            let reader = ValueReader(file: "request body", log: log)
            if let json = try? JSONParser.parse(body), let members = reader.object(json, at: "", allowed: ["count"]), let n = members.first?.value {
                count = reader.int(n, at: "count", in: 0...1_000_000)
            } else if (try? JSONParser.parse(body)) == nil {
                reader.fail("", "expected JSON like {\"count\": 1}")
            }
            guard log.problems.isEmpty else {
                return .error(400, "invalid release", [("problems", .array(log.problems.map { .string($0.description) }))])
            }
        }
        let released = control.release(routeID: id, session: session, count: count)
        return .json(200, .object([("route", .string(id)), ("released", .number(Double(released))),
                                   ("held", .number(Double(control.heldCount(routeID: id, session: session))))]))
    }

    func deleteOverride(_ id: String, session: String?) -> Reply {
        switch lookup(id) {
        case .success(let route):
            guard control.clearOverride(routeID: id, session: session, requireStore: true) else { return reply(for: .storeUnavailable) }
            return .json(200, routeJSON(route, override: nil, held: control.heldCount(routeID: id, session: session)))
        case .failure(let error): return reply(for: error)
        }
    }

    func clearAllOverrides(session: String?) -> Reply {
        for id in control.overrides(session: session).keys where !control.clearOverride(routeID: id, session: session, requireStore: true) {
            return reply(for: .storeUnavailable)
        }
        return .json(200, .object([("cleared", .bool(true))]))
    }

    func reply(for error: ControlError) -> Reply {
        switch error {
        case .unknownRoute(let id, let known):
            return .error(404, "unknown route", [("route", .string(id)), ("routes", .array(known.map { .string($0) }))])
        case .invalidDelay(let ms):
            return .error(400, "invalid delay", [("value", .number(Double(ms))), ("expected", .string(Limits.delayExpectation))])
        case .unknownVariant(let route, let variant, let known):
            return .error(400, "unknown variant", [("route", .string(route)), ("variant", .string(variant)),
                                                   ("variants", .array(known.map { .string($0) }))])
        case .storeUnavailable:
            return storeAwayReply
        }
    }
}

/// Reads the body of `PUT /__stubd/routes/{route}` with the same strictness as stub files.
enum AdminOverrideParser {
    static func parse(_ body: [UInt8]) -> Result<RouteOverride, ReplyFailure> {
        let json: JSONValue
        do { json = try JSONParser.parse(body) } catch {
            return .failure(ReplyFailure(.error(400, "invalid JSON", [("line", .number(Double(error.line))), ("column", .number(Double(error.column))),
                                                                      ("message", .string(error.message))])))
        }
        let log = ProblemLog()
        let reader = ValueReader(file: "request body", log: log)
        var o = RouteOverride()
        if let members = reader.object(json, at: "", allowed: OverrideKey.allCases.map(\.rawValue)) {
            if members.isEmpty { reader.fail("", "expected at least one of \(OverrideKey.allCases.map(\.rawValue).joined(separator: ", "))") }
            for (key, value) in members {
                guard let known = OverrideKey(rawValue: key) else { continue }
                if let tooLong = take(known, value, reader: reader, into: &o) { return .failure(tooLong) }
            }
        }
        guard log.problems.isEmpty else {
            return .failure(ReplyFailure(.error(400, "invalid override", [("problems", .array(log.problems.map { .string($0.description) }))])))
        }
        return .success(o)
    }

    /// The keys of an override body; each has its own case below, so a new key cannot parse as another.
    enum OverrideKey: String, CaseIterable {
        case variant, delay, fault, throttle, sequence, hold
    }

    /// Reads one key into `o`; a failure only for a sequence over the step limit (413).
    private static func take(_ key: OverrideKey, _ value: JSONValue, reader: ValueReader, into o: inout RouteOverride) -> ReplyFailure? {
        switch key {
        case .hold:
            guard case .bool(let flag) = value else {
                reader.fail(key.rawValue, "expected true or false, found \(value.kindDescription)")
                return nil
            }
            o.hold = flag
        case .variant: o.variant = reader.string(value, at: key.rawValue)
        case .delay: o.delay = reader.delay(value, at: key.rawValue)
        case .fault:
            let read = reader.fault(value, at: key.rawValue)
            // An override takes a fault's name: the code and byte count of `rst-stream` forms go
            // per request (X-Stub-Fault) or in a variant file.
            if let reset = read?.reset, reset != StreamReset(), case .string(let text) = value {
                reader.fail(key.rawValue, "expected a fault's name (rst-stream=CODE and rst-stream-after=N go in X-Stub-Fault or a variant's fault), found \"\(text)\"")
                return nil
            }
            o.fault = read?.fault
        case .throttle: o.throttleBytesPerSecond = reader.throttle(value, at: key.rawValue)
        case .sequence:
            guard case .array(let items) = value, !items.isEmpty else {
                reader.fail(key.rawValue, "expected a non-empty array of variant names, found \(value.kindDescription)")
                return nil
            }
            guard items.count <= Limits.maxSequenceSteps else {
                return ReplyFailure(.error(413, "sequence too long", [("limit", .string("\(Limits.maxSequenceSteps) steps")),
                                                                     ("received", .string("\(items.count) steps"))]))
            }
            o.sequence = items.enumerated().compactMap { reader.string($1, at: "sequence[\($0)]") }
        }
        return nil
    }
}
