/// A subscription variant's `next`: the payloads a `subscribe` streams.
extension VariantContext {
    /// `[{"data": …, "delay": {"ms": 500}}, …]`: each item a `next` payload (`data`, `errors`,
    /// `extensions`) with its own optional `delay`.
    func subscriptionEvents(_ value: JSONValue, at path: String) -> [SubscriptionScript.Event]? {
        guard case .array(let items) = value else {
            reader.fail(path, "expected an array of payloads like {\"data\": {…}}, found \(value.kindDescription)")
            return nil
        }
        var events: [SubscriptionScript.Event] = []
        for (index, item) in items.enumerated() {
            let at = "\(path)[\(index)]"
            guard let members = reader.object(item, at: at, allowed: ["data", "errors", "extensions", "delay"]) else { continue }
            guard members.contains(where: { $0.key == "data" || $0.key == "errors" }) else {
                reader.fail(at, "expected data or errors in a next payload")
                continue
            }
            var delay: DelaySpec?
            if let spec = members.first(where: { $0.key == "delay" })?.value { delay = reader.delay(spec, at: ValueReader.join(at, "delay")) }
            events.append(SubscriptionScript.Event(payload: .object(members.filter { $0.key != "delay" }), delay: delay))
        }
        return events
    }
}
