import StubCore

/// The text of one access-log line.
enum AccessLogLine {
    /// The line for `record` in `format`, newline included; nil when the format is `off`.
    static func format(_ r: RequestRecord, as format: AccessLogFormat) -> String? {
        guard format != .off else { return nil }
        // Read once: each read decodes the kept request and redacts its secrets (`CredentialRedaction`).
        let request = r.request
        let query = request.query.isEmpty ? "" : "?" + request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let ms = (r.elapsedMs * 10).rounded() / 10
        switch format {
        case .text:
            let outcome = r.fault.map { "fault:\($0.rawValue)" } ?? String(r.status)
            let target = r.proxied ? "proxied" : r.routeID.map { "\($0) [\(r.variant ?? "-")]" } ?? "-"
            let operation = r.operation.map { " operation:\($0)\(AccessLogLine.variables(r, request).map { " variables:\($0)" } ?? "")" } ?? ""
            let contract = r.contract.map { $0.isEmpty ? "" : " contract:\($0.count)" } ?? ""
            let version = r.httpVersion == .http11 ? "" : " " + r.httpVersion.rawValue
            return "\(request.method) \(request.path)\(query)\(version) \(outcome) \(target)\(operation) \(ms) ms\(contract)\n"
        case .json:
            var members: [(key: String, value: JSONValue)] = [
                ("method", .string(request.method)), ("path", .string(request.path + query)),
                ("route", r.routeID.map { .string($0) } ?? .null), ("variant", r.variant.map { .string($0) } ?? .null),
                ("status", .number(Double(r.status))), ("ms", .number(ms)),
            ]
            if let operation = r.operation {
                members.append(("operation", .string(operation)))
                if let variables = AccessLogLine.variables(r, request) { members.append(("variables", .string(variables))) }
            }
            if let fault = r.fault { members.append(("fault", .string(fault.rawValue))) }
            if r.proxied { members.append(("proxied", .bool(true))) }
            if let contract = r.contract, !contract.isEmpty {
                members.append(("contract", .array(contract.map { .object([("where", .string($0.location)), ("problem", .string($0.problem))]) })))
            }
            if r.delayMs > 0 { members.append(("delayMs", .number(Double(r.delayMs)))) }
            if request.scheme == .https { members.append(("scheme", .string(request.scheme.rawValue))) }
            // Like the scheme, the version is named when it is not the usual one.
            if r.httpVersion != .http11 { members.append(("httpVersion", .string(r.httpVersion.rawValue))) }
            return JSONValue.object(members).serialized() + "\n"
        case .off:
            return nil
        }
    }

    /// A GraphQL request's variables as compact JSON (read from the body kept for the record,
    /// secrets redacted); nil when it sent none.
    static func variables(_ r: RequestRecord, _ kept: StubRequest) -> String? {
        guard case .success(.single(let request)) = GraphQLRequest.parse(method: r.method, body: kept.body, query: kept.query) else {
            return nil
        }
        return request.variablesJSON
    }
}
