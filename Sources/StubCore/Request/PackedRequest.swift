/// A request's path, query, headers and the start of its body in one byte buffer, with the
/// method and scheme beside it: the copy the journal and the access log keep of every request,
/// made with one allocation and decoded into a `StubRequest` only when someone reads it.
/// The path's bytes come first, then each pair as a 2-byte name length, the name, a 4-byte value
/// length and the value. The path is copied, not referenced: the journal frees a copy a journal's
/// length of requests later, and a string it held would be one more cold object to release then.
/// The value is one reference: copying it (into the record, out of the request) is one retain.
// @unchecked Sendable: the storage's header and bytes are written only in `pack`, before it is
// shared with anyone, and only read afterwards (the standard library's ManagedBuffer is not Sendable).
package struct PackedRequest: @unchecked Sendable {
    private let storage: Storage

    /// The request method.
    package var method: String { layout(\.method) }
    /// The path as sent.
    package var path: String { withBytes { all, layout in String(decoding: all[..<layout.pathCount], as: UTF8.self) } }
    /// HTTP or HTTPS.
    package var scheme: RequestScheme { layout(\.scheme) }

    /// One field of the layout, read through its pointer: `ManagedBuffer.header` is a class's
    /// stored property, and reading it that way costs a run-time exclusivity check per read.
    @inline(__always)
    private func layout<T>(_ field: KeyPath<Layout, T>) -> T {
        storage.withUnsafeMutablePointerToHeader { $0.pointee[keyPath: field] }
    }

    /// What the buffer holds besides its bytes.
    struct Layout {
        let method: String
        let scheme: RequestScheme
        /// The path's bytes, at the start of the buffer.
        let pathCount: Int
        /// Bytes written.
        var count = 0
        var queryCount = 0
        var headerCount = 0
        /// Where the body starts among the bytes.
        var bodyStart = 0
        /// Whether a query name starts with `__` or a header name with `X-Stub-`, noted as written.
        var controls = false
    }

    /// The header and the bytes in one allocation.
    final class Storage: ManagedBuffer<Layout, UInt8> {}

    /// Writes pairs into the packed request's buffer as it is made (see `pack`): a length, then
    /// the bytes, each with one copy, into room reserved up front.
    package struct Writer {
        private let base: UnsafeMutablePointer<UInt8>
        private let capacity: Int
        fileprivate private(set) var count = 0
        fileprivate private(set) var queryCount = 0
        fileprivate private(set) var headerCount = 0
        /// True when a pair did not fit; the packing is then given up (see `pack`).
        fileprivate private(set) var overflowed = false
        /// Whether a pair's name had a control's prefix.
        fileprivate private(set) var controls = false

        fileprivate init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
            base = buffer.baseAddress!
            capacity = buffer.count
        }

        /// Adds a query parameter; all of them come before the first header.
        package mutating func addQuery(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            if put(name, value) { queryCount += 1 }
            if !controls && ControlNames.isControlQuery(Writer.bytes(name)) { controls = true }
        }

        /// Adds a header.
        package mutating func addHeader(name: UnsafeRawBufferPointer, value: UnsafeRawBufferPointer) {
            if put(name, value) { headerCount += 1 }
            if !controls && ControlNames.isControlHeader(Writer.bytes(name)) { controls = true }
        }

        private static func bytes(_ raw: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(start: raw.baseAddress?.assumingMemoryBound(to: UInt8.self), count: raw.count)
        }

        private mutating func put(_ name: UnsafeRawBufferPointer, _ value: UnsafeRawBufferPointer) -> Bool {
            let n = min(name.count, Int(UInt16.max)), v = min(value.count, Int(UInt32.max))
            guard !overflowed, capacity - count >= PackedRequest.pairOverhead + n + v else {
                overflowed = true
                return false
            }
            for shift in 0..<2 { base[count + shift] = UInt8(truncatingIfNeeded: n >> (8 * shift)) }
            if n > 0 { (base + count + 2).update(from: name.baseAddress!.assumingMemoryBound(to: UInt8.self), count: n) }
            count += 2 + n
            for shift in 0..<4 { base[count + shift] = UInt8(truncatingIfNeeded: v >> (8 * shift)) }
            if v > 0 { (base + count + 4).update(from: value.baseAddress!.assumingMemoryBound(to: UInt8.self), count: v) }
            count += 4 + v
            return true
        }

        /// Writes the path's bytes; the first thing written (room for them is added in `pack`).
        fileprivate mutating func putPath(_ path: String) {
            var path = path
            path.withUTF8 { bytes in
                if let from = bytes.baseAddress { base.update(from: from, count: bytes.count) }
                count = bytes.count
            }
        }

        fileprivate mutating func putBody(_ body: ArraySlice<UInt8>) -> Int {
            let start = count
            guard capacity - count >= body.count else {
                overflowed = true
                return start
            }
            body.withUnsafeBufferPointer { if let from = $0.baseAddress { (base + count).update(from: from, count: $0.count) } }
            count += body.count
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
        let room = max(capacity + pathCount, 1)
        let storage = unsafeDowncast(Storage.create(minimumCapacity: room) { _ in Layout(method: method, scheme: scheme, pathCount: pathCount) },
                                     to: Storage.self)
        let complete = storage.withUnsafeMutablePointers { layout, elements in
            var writer = Writer(UnsafeMutableBufferPointer(start: elements, count: room))
            writer.putPath(path)
            fill(&writer)
            layout.pointee.bodyStart = writer.putBody(body.prefix(bodyLimit))
            layout.pointee.count = writer.count
            layout.pointee.queryCount = writer.queryCount
            layout.pointee.headerCount = writer.headerCount
            layout.pointee.controls = writer.controls
            return !writer.overflowed
        }
        return complete ? PackedRequest(storage: storage) : nil
    }

    /// Where the storage lies and how many bytes it spans, as numbers: a cache hint (see
    /// `RequestJournal`), never a reference.
    var storageExtent: (address: UInt, bytes: Int) {
        // The object's header (two words), then the layout, then the bytes written.
        (UInt(bitPattern: Unmanaged.passUnretained(storage).toOpaque()), 16 + MemoryLayout<Layout>.stride + layout(\.count))
    }

    /// The bytes written, for reading.
    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>, Layout) -> R) -> R {
        storage.withUnsafeMutablePointers { layout, elements in
            body(UnsafeBufferPointer(start: elements, count: layout.pointee.count), layout.pointee)
        }
    }

    /// Calls `visit` with each pair of the query (`headers` false) or the headers, until it returns false.
    private func forEach(headers: Bool, _ visit: (UnsafeBufferPointer<UInt8>, UnsafeBufferPointer<UInt8>) -> Bool) {
        withBytes { all, layout in
            var at = layout.pathCount
            let skip = headers ? layout.queryCount : 0
            for index in 0..<(skip + (headers ? layout.headerCount : layout.queryCount)) {
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
        out.reserveCapacity(headers ? layout(\.headerCount) : layout(\.queryCount))
        forEach(headers: headers) { key, value in
            out.append((String(decoding: key, as: UTF8.self), String(decoding: value, as: UTF8.self)))
            return true
        }
        return out
    }

    /// The body kept (its first `Limits.journalBodyBytes` bytes).
    package var body: [UInt8] { withBytes { all, layout in Array(all[layout.bodyStart...]) } }

    /// Whether a header name starts with `X-Stub-` or a query name with `__` (noted while packing).
    package var mayCarryControls: Bool { layout(\.controls) }

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
