import StubCore

/// The request as the core reads it: method, path and body are held, headers and query parameters
/// are looked up on the connection when asked for, so a plain request copies none of them.
extension RequestContext: RequestHead {
    func header(_ name: String) -> String? {
        connection?.header(name)
    }

    func queryValue(_ name: String) -> String? {
        connection?.queryValue(name)
    }

    func allQueryParameters() -> [(name: String, value: String)] {
        connection?.queryParameters() ?? []
    }

    func allHeaders() -> [(name: String, value: String)] {
        connection?.headers() ?? []
    }

    var mayCarryControls: Bool {
        if let known = controlsSeen { return known }
        let seen = connection?.hasControlNames() ?? false
        controlsSeen = seen
        return seen
    }
}
