import StubSystem

/// A request's path, query, headers and the start of its body in one byte array, with the
/// method and scheme beside it: the copy the journal and the access log keep of every request,
/// made with one allocation and decoded into a `StubRequest` only when someone reads it.
/// The path's bytes come first, then each pair as a 2-byte name length, the name, a 4-byte value
/// length and the value. The path is copied, not referenced: the journal frees a copy a journal's
/// length of requests later, and a string it held would be one more object to release then.
package struct PackedRequest: Sendable {
    /// The request method.
    package let method: String
    /// HTTP or HTTPS.
    package let scheme: RequestScheme
    /// The path, then the pairs, then the body kept.
    private let bytes: [UInt8]
    /// The path's bytes, at the start of `bytes`.
    private let pathCount: Int
    private let queryCount: Int
    private let headerCount: Int
    /// Where the body starts in `bytes`.
    private let bodyStart: Int
    /// Whether a query name starts with `__` or a header name with `X-Stub-`, noted as written.
    private let controls: Bool

    /// The path as sent.
    package var path: String { String(decoding: bytes[..<pathCount], as: UTF8.self) }

    /// Where the packed bytes lie, for the journal's drop hint (`JournalDropHint`).
    var span: Prefetch.Span { Prefetch.Span(elementsOf: bytes) }

    /// Writes pairs into the packed request's bytes as it is made (see `pack`): a length, then
    /// the bytes, appended to an array whose room is reserved up front. Writing through a pointer
    /// saved 0.8% of the instructions per request against the array's uninitialized room, and
    /// about 1.5% (680) against a ManagedBuffer (bench/instructions.py): under the 2% of server
    /// CPU a pointer must earn (bench/README.md).
    package struct Writer {
        fileprivate private(set) var bytes: [UInt8] = []
        private let capacity: Int
        fileprivate private(set) var queryCount = 0
        fileprivate private(set) var headerCount = 0
        /// True when a pair did not fit; the packing is then given up (see `pack`).
        fileprivate private(set) var overflowed = false
        /// Whether a pair's name had a control's prefix.
        fileprivate private(set) var controls = false

        fileprivate init(capacity: Int) {
            self.capacity = capacity
            bytes.reserveCapacity(capacity)
        }

        /// Adds a query parameter; all of them come before the first header.
        package mutating func addQuery(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            if put(name, value) { queryCount += 1 }
            if !controls && ControlNames.isControlQuery(name.assumingMemoryBound(to: UInt8.self)) { controls = true }
        }

        /// Adds a header.
        package mutating func addHeader(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            if put(name, value) { headerCount += 1 }
            if !controls && ControlNames.isControlHeader(name.assumingMemoryBound(to: UInt8.self)) { controls = true }
        }

        private mutating func put(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Bool {
            let n = name.count, v = value.count
            // A name or value past its length's width (none in libmicrohttpd's pool) gives the
            // packing up, as a pair that does not fit does.
            guard !overflowed, n <= Int(UInt16.max), v <= Int(UInt32.max), capacity - bytes.count >= PackedRequest.pairOverhead + n + v else {
                overflowed = true
                return false
            }
            // Whole buffers: appended with one copy (a slice of one goes element by element).
            for shift in 0..<2 { bytes.append(UInt8(truncatingIfNeeded: n >> (8 * shift))) }
            bytes.append(contentsOf: name)
            for shift in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * shift))) }
            bytes.append(contentsOf: value)
            return true
        }

        /// Writes the path's bytes; the first thing written (room for them is added in `pack`).
        fileprivate mutating func putPath(_ path: String) {
            bytes.append(contentsOf: path.utf8)
        }

        fileprivate mutating func putBody(_ body: ArraySlice<UInt8>) -> Int {
            let start = bytes.count
            guard capacity - bytes.count >= body.count else {
                overflowed = true
                return start
            }
            bytes.append(contentsOf: body)
            return start
        }
    }

    /// Bytes a pair takes beyond its name and value: a 2-byte and a 4-byte length.
    package static let pairOverhead = 6

    /// Packs a request in one allocation: the path, then what `fill` writes (the query parameters,
    /// then the headers) in `capacity` bytes with the start of `body` (at most `bodyLimit` bytes)
    /// after them. Nil when they do not fit (the caller then keeps no copy and reads the request
    /// where it lies).
    package static func pack(capacity: Int, method: String, path: String, scheme: RequestScheme, body: [UInt8], bodyLimit: Int,
                             _ fill: (inout Writer) -> Void) -> PackedRequest? {
        let pathCount = path.utf8.count
        var writer = Writer(capacity: max(capacity + pathCount, 1))
        writer.putPath(path)
        fill(&writer)
        let bodyStart = writer.putBody(body.prefix(bodyLimit))
        guard !writer.overflowed else { return nil }
        return PackedRequest(method: method, scheme: scheme, bytes: writer.bytes, pathCount: pathCount, queryCount: writer.queryCount,
                             headerCount: writer.headerCount, bodyStart: bodyStart, controls: writer.controls)
    }

    /// Calls `visit` with each pair of the query (`headers` false) or the headers, until it
    /// returns false. Through a buffer pointer: array slices cost a header lookup (several per
    /// request) twice the instructions (bench/instructions.py).
    private func forEach(headers: Bool, _ visit: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        bytes.withUnsafeBufferPointer { all in
            var at = pathCount
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

    /// Whether a header name starts with `X-Stub-` or a query name with `__` (noted while packing).
    package var mayCarryControls: Bool { controls }

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
