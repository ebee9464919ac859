/// Typed reads of JSON values in one stub file, logging a problem for anything of the wrong shape.
struct ValueReader {
    let file: String
    let log: ProblemLog

    static func join(_ path: String, _ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func fail(_ path: String, _ message: String) {
        log.add(file, path, message)
    }

    /// The members of an object, after reporting keys not in `allowed`.
    func object(_ value: JSONValue, at path: String, allowed: [String]) -> [(key: String, value: JSONValue)]? {
        guard case .object(let members) = value else {
            fail(path, "expected an object, found \(value.kindDescription)")
            return nil
        }
        for (key, _) in members where !allowed.contains(key) {
            let hint = StringDistance.closest(to: key, in: allowed).map { "did you mean \"\($0)\"? " } ?? ""
            fail(ValueReader.join(path, key), "unknown key; \(hint)expected one of \(allowed.joined(separator: ", "))")
        }
        return members.filter { allowed.contains($0.key) }
    }

    func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let s) = value else {
            fail(path, "expected a string, found \(value.kindDescription)")
            return nil
        }
        return s
    }

    func int(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let n = value.wholeNumber(in: range) else {
            let found = value.scalarText.map { "\(value.kindDescription) \($0)" } ?? value.kindDescription
            fail(path, "expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(found)")
            return nil
        }
        return n
    }

    func number(_ value: JSONValue, at path: String, minimum: Double) -> Double? {
        guard case .number(let number) = value, case let n = number.value, n >= minimum else {
            fail(path, "expected a number ≥ \(JSONNumber.format(minimum)), found \(value.scalarText ?? value.kindDescription)")
            return nil
        }
        return n
    }

    /// An object whose values are all strings (headers, `when` maps).
    func stringMap(_ value: JSONValue, at path: String) -> [(key: String, value: String)]? {
        guard case .object(let members) = value else {
            fail(path, "expected an object of strings, found \(value.kindDescription)")
            return nil
        }
        var out: [(key: String, value: String)] = []
        for (key, v) in members {
            if let s = string(v, at: ValueReader.join(path, key)) { out.append((key, s)) }
        }
        return out
    }

    func headers(_ value: JSONValue, at path: String) -> [HTTPHeader]? {
        guard let map = stringMap(value, at: path) else { return nil }
        var ok = true
        for (name, v) in map {
            if name.isEmpty || name.utf8.contains(where: { $0 <= 0x20 || $0 == UInt8(ascii: ":") || $0 >= 0x7F }) {
                fail(ValueReader.join(path, name), "expected a header name (visible ASCII, no spaces or ':'), found \"\(name)\"")
                ok = false
            }
            if v.utf8.contains(where: { $0 == 0x0A || $0 == 0x0D }) {
                fail(ValueReader.join(path, name), "expected a header value on one line, found a line break")
                ok = false
            }
        }
        return ok ? map.map { HTTPHeader($0.key, $0.value) } : nil
    }

    func delay(_ value: JSONValue, at path: String) -> DelaySpec? {
        let keys = ["ms", "min", "max", "median", "sigma"]
        guard let members = object(value, at: path, allowed: keys) else { return nil }
        let names = Set(members.map(\.key))
        let maxDelay = Limits.maxDelayMs
        func field(_ k: String) -> Int? { value[k].flatMap { int($0, at: ValueReader.join(path, k), in: 0...maxDelay) } }
        switch names {
        case ["ms"]:
            return field("ms").map { .fixed(ms: $0) }
        case ["min", "max"]:
            guard let lo = field("min"), let hi = field("max") else { return nil }
            guard lo <= hi else { fail(path, "expected min ≤ max, found min \(lo) and max \(hi)"); return nil }
            return .uniform(min: lo, max: hi)
        case ["median", "sigma", "max"], ["median", "sigma"]:
            guard let median = value["median"].flatMap({ number($0, at: ValueReader.join(path, "median"), minimum: 0) }),
                  let sigma = value["sigma"].flatMap({ number($0, at: ValueReader.join(path, "sigma"), minimum: 0) }) else { return nil }
            let cap = names.contains("max") ? field("max") : maxDelay
            return cap.map { .lognormal(median: median, sigma: sigma, max: $0) }
        default:
            fail(path, "expected {\"ms\": N}, {\"min\": N, \"max\": N} or {\"median\": N, \"sigma\": S, \"max\": N}, found keys \(members.map(\.key).joined(separator: ", "))")
            return nil
        }
    }

    /// `{"bytesPerSecond": N}`: the body is sent at N bytes per second.
    func throttle(_ value: JSONValue, at path: String) -> Int? {
        guard let members = object(value, at: path, allowed: ["bytesPerSecond"]) else { return nil }
        guard let rate = members.first?.value else {
            fail(path, "expected {\"bytesPerSecond\": N}, found an empty object")
            return nil
        }
        return int(rate, at: ValueReader.join(path, "bytesPerSecond"), in: 1...1_000_000_000)
    }

    func fault(_ value: JSONValue, at path: String) -> (fault: Fault, reset: StreamReset?)? {
        guard let name = string(value, at: path) else { return nil }
        switch StreamReset.parse(name) {
        case .reset(let reset): return (.rstStream, reset)
        case .invalid:
            fail(path, "expected \(StreamReset.expectation), found \"\(name)\"")
            return nil
        case .none: break
        }
        guard let fault = Fault(rawValue: name) else {
            fail(path, "expected one of \(Fault.names), rst-stream=CODE or rst-stream-after=N[:CODE], found \"\(name)\"")
            return nil
        }
        return (fault, nil)
    }

    func condition(_ value: JSONValue, at path: String, parameters: [String]) -> RequestCondition? {
        conditions(value, at: path, parameters: parameters).request
    }

    /// A `when` object: what it asks of the request, and what it asks of state (`"state"`, and
    /// request values compared with a template such as `{{state.password}}`).
    func conditions(_ value: JSONValue, at path: String, parameters: [String]) -> (request: RequestCondition?, state: StateCondition) {
        var memory = StateCondition()
        guard let members = object(value, at: path, allowed: ["path", "query", "headers", "body", "variables", "state"]) else { return (nil, memory) }
        var condition = RequestCondition()
        for (key, v) in members {
            let p = ValueReader.join(path, key)
            if key == "state" {
                memory.state = stateCondition(v, at: p)
                continue
            }
            guard let map = stringMap(v, at: p) else { continue }
            var dict: [String: String] = [:]
            for (name, want) in map where dict[name] == nil {
                // A value with a placeholder is compared per request, after rendering.
                if want.contains("{{"), let template = template(want, at: ValueReader.join(p, name)) {
                    memory.compared.append((StateCondition.Place(rawValue: key)!, name, template))
                } else {
                    dict[name] = want
                }
            }
            switch key {
            case "path":
                for (name, _) in map where !parameters.contains(name) {
                    fail(ValueReader.join(p, name), "expected a path parameter of the route (\(parameters.isEmpty ? "it has none" : parameters.joined(separator: ", "))), found \"\(name)\"")
                }
                condition.path = dict
            case "query": condition.query = dict
            case "headers": condition.headers = dict
            case "variables": condition.variables = dict
            default: condition.body = dict
            }
        }
        return (condition, memory)
    }
}
