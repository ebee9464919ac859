import StubCore

/// The request as the core reads it. When the journal or the access log will take a copy anyway,
/// the copy is made first, in one pass over the headers and one over the query, and every lookup
/// reads it; otherwise headers and query parameters are looked up on the connection, so a request
/// nobody records copies none of them.
extension RequestContext: RequestHead {
    func header(_ name: String) -> String? {
        if let copy { return copy.header(name) }
        return connection?.header(name)
    }

    func queryValue(_ name: String) -> String? {
        if let copy { return copy.queryValue(name) }
        return connection?.queryValue(name)
    }

    func queryValues(_ name: String) -> [String] {
        if let copy { return copy.queryValues(name) }
        return connection?.queryValues(name) ?? []
    }

    func allQueryParameters() -> [(name: String, value: String)] {
        copy?.pairs(headers: false) ?? connection?.queryParameters() ?? []
    }

    func allHeaders() -> [(name: String, value: String)] {
        copy?.pairs(headers: true) ?? connection?.headers() ?? []
    }

    var packedCopy: PackedRequest? { copy }

    var scheme: RequestScheme { isSecure ? .https : .http }

    var mayCarryControls: Bool {
        if let known = controlsSeen { return known }
        // A packed copy noted it already (`takeCopy`).
        let seen = controlHeaderSeen || connection?.hasControlQueryNames() == true
        controlsSeen = seen
        return seen
    }

    /// Copies the whole request (control parameters included) for the lookups and the record,
    /// packed into one buffer: the query and headers straight from libmicrohttpd's memory, and
    /// the start of the body the journal keeps. Names and values lie in the head, so the head's
    /// size plus each pair's lengths is room enough.
    func takeCopy() {
        guard let connection else { return }
        let kept = min(body.count, Limits.journalBodyBytes)
        let packed = PackedRequest.pack(capacity: connection.headSize + pairCount * PackedRequest.pairOverhead + kept, method: method, path: path,
                                        scheme: scheme, body: body, bodyLimit: Limits.journalBodyBytes) { connection.pack(into: &$0) }
        // Noted now, while the copy is in hand: later reads of it would each retain it.
        if let packed { controlsSeen = packed.mayCarryControls }
        copy = packed
    }
}
