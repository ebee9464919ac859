/// What a route gives each of its variants while they load.
struct VariantContext {
    let reader: ValueReader
    let parameters: [String]
    let baseHeaders: [HTTPHeader]
    let envelope: ErrorEnvelope?
    let delay: DelaySpec?
    let throttle: Int?

    func variant(name: String, json: JSONValue?, file: BodyFile?) -> Variant? {
        let path = ValueReader.join("variants", name)
        guard BodyFile.isVariantName(name) else {
            reader.fail(path, "expected a variant name of letters, digits, '-', '_' or '.', found \"\(name)\"")
            return nil
        }
        var status = BodyFile.leadingStatus(name)
        var headers: [HTTPHeader] = []
        var body: [UInt8]? = file?.bytes
        var contentType = file?.contentType
        var condition: RequestCondition?
        var variantDelay = delay
        var variantThrottle = throttle
        var fault: Fault?
        var description: String?
        var errorValues: [String: String]?
        if let json, let members = reader.object(json, at: path, allowed: RouteLoader.variantKeys) {
            for (key, value) in members {
                let p = ValueReader.join(path, key)
                switch key {
                case "status":
                    guard let s = reader.int(value, at: p, in: 100...599) else { continue }
                    if let fromName = BodyFile.leadingStatus(name), fromName != s {
                        reader.fail(p, "expected the status the name gives (\(fromName)), found \(s)")
                    }
                    status = s
                case "headers": headers = reader.headers(value, at: p) ?? []
                case "body":
                    if let file { reader.fail(p, "expected either \(file.relative) or an inline body, found both") }
                    body = Array(value.serialized(pretty: true).utf8)
                    contentType = "application/json; charset=utf-8"
                case "error": errorValues = errorObject(value, at: p)
                case "when": condition = reader.condition(value, at: p, parameters: parameters)
                case "description": description = reader.string(value, at: p)
                case "delay": variantDelay = reader.delay(value, at: p) ?? variantDelay
                case "throttle": variantThrottle = reader.throttle(value, at: p) ?? variantThrottle
                default: fault = reader.fault(value, at: p)
                }
            }
        }
        if let values = errorValues {
            if body != nil {
                reader.fail(ValueReader.join(path, "error"), "expected either an error or a body, found both")
            } else if let envelope {
                for name in envelope.variables where name != "status" && values[name] == nil {
                    reader.fail(ValueReader.join(path, "error"), "missing \"\(name)\"; the service's errorEnvelope uses {{\(name)}}")
                }
                body = Array(envelope.render(values, status: status ?? 0).serialized(pretty: true).utf8)
                contentType = "application/json; charset=utf-8"
            } else {
                reader.fail(ValueReader.join(path, "error"), "expected an errorEnvelope in the service's _service.json to render this error, found none")
            }
        }
        guard let finalStatus = status ?? (fault != nil ? 0 : nil) else {
            reader.fail(path, "expected a status: start the name with one (\"401-\(name)\") or add \"status\"")
            return nil
        }
        var merged = baseHeaders
        var all: [HTTPHeader] = []
        if let contentType, body != nil { all.set("Content-Type", contentType) }
        for h in merged + headers { all.set(h.name, h.value) }
        merged = all
        return Variant(name: name, status: finalStatus, headers: merged, body: body ?? [], condition: condition,
                       delay: variantDelay, throttleBytesPerSecond: variantThrottle, fault: fault, description: description)
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
