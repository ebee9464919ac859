/// One request as `when` conditions and templates read it: control query parameters hidden, the
/// path parameters at hand, and the body parsed at most once however many conditions read it.
struct RequestView {
    let head: any RequestHead
    let parameters: [String: String]
    private var fields: [String: String]?

    init(_ head: any RequestHead, parameters: [String: String]) {
        self.head = head
        self.parameters = parameters
    }

    func header(_ name: String) -> String? {
        head.header(name)
    }

    func query(_ name: String) -> String? {
        RequestControls.queryNames.contains(name) ? nil : head.queryValue(name)
    }

    mutating func bodyField(_ name: String) -> String? {
        if fields == nil { fields = BodyFields.parse(head.body, contentType: head.header("Content-Type")) }
        return fields?[name]
    }
}
