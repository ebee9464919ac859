internal import CMicroHTTPD
import StubCore

/// Owns one libmicrohttpd response object and destroys it in `deinit`. MHD counts its own
/// references, so a response that is queued stays alive until the connections using it are done.
final class MHDResponse: @unchecked Sendable {
    // @unchecked: the pointer never changes, and libmicrohttpd locks the response's reference
    // count, so one object may be queued from every polling thread at once (measured: 700k requests
    // from one object).
    let pointer: OpaquePointer

    /// The response without its owner, for a caller that keeps the owner alive.
    struct Handle: @unchecked Sendable {
        // @unchecked: a libmicrohttpd response may be queued from any thread (see above).
        let pointer: OpaquePointer
    }

    /// This response as a `Handle`.
    var handle: Handle { Handle(pointer: pointer) }

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

    /// A response whose body libmicrohttpd pulls from `body` as the client reads: `size` bytes,
    /// or of unknown length (chunked) when nil. `body` is retained until libmicrohttpd frees the
    /// response (`stubdPulledFree`).
    init?(pulling body: PulledBody, size: Int?, headers: [HTTPHeader]) {
        let cls = Unmanaged.passRetained(body).toOpaque()
        // UInt64.max is MHD_SIZE_UNKNOWN, a C macro with a cast.
        guard let made = MHD_create_response_from_callback(size.map { UInt64($0) } ?? UInt64.max, 1024, stubdPulledRead, cls, stubdPulledFree) else {
            Unmanaged<PulledBody>.fromOpaque(cls).release()
            return nil
        }
        pointer = made
        add(headers)
    }

    /// Takes ownership of `made`, a response just created, adding `headers`.
    init(adopting made: OpaquePointer, headers: [HTTPHeader]) {
        pointer = made
        add(headers)
    }

    deinit { MHD_destroy_response(pointer) }

    private func add(_ headers: [HTTPHeader]) {
        // Refused only for framing libmicrohttpd writes itself (Content-Length, Connection: keep-alive, non-chunked Transfer-Encoding).
        for header in headers { _ = MHD_add_response_header(pointer, header.name, header.value) }
    }
}
