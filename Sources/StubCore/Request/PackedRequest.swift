/// A request's query, headers and the start of its body in one byte buffer, with the method,
/// path and scheme beside it: the copy the journal and the access log keep of every request,
/// made with one allocation and decoded into a `StubRequest` only when someone reads it.
/// Each pair is written as a 2-byte name length, the name, a 4-byte value length and the value.
package struct PackedRequest: Sendable {
    package let method: String
    package let path: String
    package let scheme: RequestScheme
    private let bytes: [UInt8]
    private let queryCount: Int
    private let headerCount: Int
    /// Where the body starts in `bytes`.
    private let bodyStart: Int

    /// Builds a packed request pair by pair, into one buffer reserved up front.
    package struct Builder {
        private var bytes: [UInt8] = []
        private var queryCount = 0
        private var headerCount = 0
        private var inHeaders = false

        /// A builder with room for `capacity` bytes (the head's size and the body kept).
        package init(capacity: Int) { bytes.reserveCapacity(capacity) }

        /// Adds a query parameter; all of them come before the first header.
        package mutating func addQuery(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            append(name, value)
            queryCount += 1
        }

        /// Adds a header.
        package mutating func addHeader(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            append(name, value)
            headerCount += 1
        }

        private mutating func append(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) {
            let n = min(name.count, Int(UInt16.max)), v = min(value.count, Int(UInt32.max))
            // Whole runs of bytes at a time (memcpy), not byte by byte.
            withUnsafeBytes(of: UInt16(n).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: name[..<n]))
            withUnsafeBytes(of: UInt32(v).littleEndian) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: value[..<v]))
        }

        /// The packed request, with the start of `body` (at most `bodyLimit` bytes).
        package consuming func finish(method: String, path: String, scheme: RequestScheme, body: [UInt8], bodyLimit: Int) -> PackedRequest {
            let start = bytes.count
            bytes.append(contentsOf: body.prefix(bodyLimit))
            return PackedRequest(method: method, path: path, scheme: scheme, bytes: bytes, queryCount: queryCount, headerCount: headerCount,
                                 bodyStart: start)
        }
    }

    /// Calls `visit` with each pair of the query (`headers` false) or the headers, until it returns false.
    private func forEach(headers: Bool, _ visit: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        bytes.withUnsafeBufferPointer { all in
            var at = 0
            let skip = headers ? queryCount : 0
            for index in 0..<(skip + (headers ? headerCount : queryCount)) {
                let n = Int(all[at]) | Int(all[at + 1]) << 8
                let name = UnsafeBufferPointer(rebasing: all[(at + 2)..<(at + 2 + n)])
                at += 2 + n
                var v = 0
                for shift in 0..<4 { v |= Int(all[at + shift]) << (8 * shift) }
                let value = UnsafeBufferPointer(rebasing: all[(at + 4)..<(at + 4 + v)])
                at += 4 + v
                if index >= skip && !visit(name, value) { return }
            }
        }
    }

    /// The first value of a header, its name compared without case.
    package func header(_ name: String) -> String? {
        var found: String?
        var name = name
        name.withUTF8 { want in
            forEach(headers: true) { key, value in
                guard ASCIICase.equal(key, want) else { return true }
                found = String(decoding: value, as: UTF8.self)
                return false
            }
        }
        return found
    }

    /// Every value of a query parameter, in order.
    package func queryValues(_ name: String) -> [String] {
        var found: [String] = []
        var name = name
        name.withUTF8 { want in
            forEach(headers: false) { key, value in
                if key.elementsEqual(want) { found.append(String(decoding: value, as: UTF8.self)) }
                return true
            }
        }
        return found
    }

    /// The first value of a query parameter.
    package func queryValue(_ name: String) -> String? {
        var found: String?
        var name = name
        name.withUTF8 { want in
            forEach(headers: false) { key, value in
                guard key.elementsEqual(want) else { return true }
                found = String(decoding: value, as: UTF8.self)
                return false
            }
        }
        return found
    }

    /// The query parameters, or the headers, decoded.
    package func pairs(headers: Bool) -> [(name: String, value: String)] {
        var out: [(name: String, value: String)] = []
        out.reserveCapacity(headers ? headerCount : queryCount)
        forEach(headers: headers) { key, value in
            out.append((String(decoding: key, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            return true
        }
        return out
    }

    /// The body kept (its first `Limits.journalBodyBytes` bytes).
    package var body: [UInt8] { Array(bytes[bodyStart...]) }

    /// Whether a header name starts with `X-Stub-` or a query name with `__`.
    package var mayCarryControls: Bool {
        var seen = false
        forEach(headers: false) { key, _ in
            seen = ControlNames.isControlQuery(key)
            return !seen
        }
        if seen { return true }
        forEach(headers: true) { key, _ in
            seen = ControlNames.isControlHeader(key)
            return !seen
        }
        return seen
    }

    /// The request as the journal shows it: control query parameters left out, `path` instead
    /// of the one sent when given (a session prefix taken off).
    package func decoded(path override: String? = nil) -> StubRequest {
        var query = pairs(headers: false)
        if query.contains(where: { RequestControls.queryNames.contains($0.name) }) {
            query.removeAll { RequestControls.queryNames.contains($0.name) }
        }
        var request = StubRequest(method: method, path: override ?? path, query: query, headers: pairs(headers: true), body: body,
                                  scheme: scheme)
        request.method = method
        return request
    }
}
