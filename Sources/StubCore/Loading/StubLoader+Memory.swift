/// Loading what services remember: `_state.json`, and the check that every state name read in
/// a template or a `when` is one the service has (in its seed or set by a `then`).
extension StubLoader {
    /// A service's file of initial state values.
    static let stateFile = "_state.json"

    /// `_state.json`: an object of state name to initial value.
    static func readState(root: String, relative: String, log: ProblemLog) -> [String: JSONValue] {
        guard let json = readJSON(root: root, relative: relative, log: log) else { return [:] }
        guard case .object(let members) = json else {
            log.add(relative, "", "expected an object of state name to initial value, found \(json.kindDescription)")
            return [:]
        }
        var values: [String: JSONValue] = [:]
        for (key, value) in members {
            if key.isEmpty { log.add(relative, "", "expected a state name, found an empty one"); continue }
            if values[key] != nil { log.add(relative, key, "the name is given twice") }
            values[key] = value
        }
        return values
    }

    /// Reports each state name read that no seed has and no `then` writes, in the service of the
    /// route that reads it.
    static func checkStateNames(_ routes: [Route], seeds: [String: [String: JSONValue]], log: ProblemLog) {
        var known: [String: Set<String>] = [:], prefixes: [String: [String]] = [:]
        for (service, seed) in seeds { known[service, default: []].formUnion(seed.keys) }
        for route in routes {
            guard let service = route.memory?.service else { continue }
            for variant in route.variants {
                for name in variant.memory?.changes?.names ?? [] {
                    let prefix = name.literalPrefix
                    if prefix.whole { known[service, default: []].insert(prefix.text) } else { prefixes[service, default: []].append(prefix.text) }
                }
            }
        }
        for route in routes {
            guard let service = route.memory?.service else { continue }
            for variant in route.variants {
                var reads = variant.template?.stateNames ?? []
                if let memory = variant.memory {
                    reads += memory.condition.state.compactMap { $0.name.literalPrefix.whole ? $0.name.literalPrefix.text : nil }
                    reads += memory.condition.compared.flatMap { $0.template.stateNames }
                    for (_, value) in memory.changes?.set ?? [] { if case .template(let t) = value { reads += t.stateNames } }
                }
                for name in reads where !(known[service]?.contains(name) ?? false) && !(prefixes[service] ?? []).contains(where: { !$0.isEmpty && name.hasPrefix($0) }) {
                    let names = (known[service] ?? []).sorted()
                    let file = variant.template != nil && variant.bodySource?.contains(":") == false ? variant.bodySource! : "\(route.id.split(separator: ":").first ?? "")/route.json"
                    log.add(file, "variants.\(variant.name)", "unknown state name \"\(name)\"; expected one the service has in \(service.isEmpty ? "" : service + "/")\(stateFile) or sets with then (\(names.isEmpty ? "it has none" : names.joined(separator: ", ")))")
                }
            }
        }
    }
}
