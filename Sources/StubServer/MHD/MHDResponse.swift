internal import CMicroHTTPD
import StubCore

/// Owns one libmicrohttpd response object and destroys it in `deinit`. MHD counts its own
/// references, so a response that is queued stays alive until the connections using it are done.
final class MHDResponse: @unchecked Sendable {
    // @unchecked: the pointer never changes, and libmicrohttpd locks the response's reference
    // count, so one object may be queued from every polling thread at once (measured: 700k requests
    // from one object).
    let pointer: OpaquePointer

    /// A response holding its own copy of `bytes`, with `headers` added.
    init(bytes: [UInt8], headers: [HTTPHeader]) {
        let made = bytes.withUnsafeBytes { raw in
            // MUST_COPY: MHD keeps its own copy, so the Swift array can go away.
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let made else { fatalError("libmicrohttpd could not allocate a response of \(bytes.count) bytes") }
        pointer = made
        add(headers)
    }

    /// A response whose `size` body bytes libmicrohttpd pulls from `body` as the client reads.
    convenience init?(pulling body: ThrottledBody, size: Int, headers: [HTTPHeader]) {
        self.init(source: body, size: size, reader: stubdThrottleRead, free: stubdThrottleFree, headers: headers)
    }

    /// A response of unknown length (chunked) whose events `body` sends as they fall due.
    convenience init?(streaming body: StreamedBody, headers: [HTTPHeader]) {
        // MHD_SIZE_UNKNOWN, a C macro with a cast.
        self.init(source: body, size: -1, reader: stubdStreamRead, free: stubdStreamFree, headers: headers)
    }

    /// A response that promises `size` body bytes but has only `partial`: libmicrohttpd sends the
    /// head and `partial`, then closes the connection (the `truncate` fault, through TLS too).
    convenience init?(partial: PartialBody, promising size: Int, headers: [HTTPHeader]) {
        self.init(source: partial, size: size, reader: stubdPartialRead, free: stubdPartialFree, headers: headers)
    }

    /// A response whose body `reader` pulls from `source`, which is retained here and released by
    /// `free` when libmicrohttpd frees the response.
    private init?(source: AnyObject, size: Int, reader: MHD_ContentReaderCallback, free: MHD_ContentReaderFreeCallback, headers: [HTTPHeader]) {
        let cls = Unmanaged.passRetained(source).toOpaque()
        guard let made = MHD_create_response_from_callback(size < 0 ? UInt64.max : UInt64(size), 1024, reader, cls, free) else {
            Unmanaged<AnyObject>.fromOpaque(cls).release()
            return nil
        }
        pointer = made
        add(headers)
    }

    deinit { MHD_destroy_response(pointer) }

    private func add(_ headers: [HTTPHeader]) {
        for header in headers { _ = MHD_add_response_header(pointer, header.name, header.value) }
    }
}
