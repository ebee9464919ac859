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
    init?(pulling body: ThrottledBody, size: Int, headers: [HTTPHeader]) {
        // Retained here, released by stubdThrottleFree when MHD frees the response.
        let cls = Unmanaged.passRetained(body).toOpaque()
        guard let made = MHD_create_response_from_callback(UInt64(size), 1024, stubdThrottleRead, cls, stubdThrottleFree) else {
            Unmanaged<ThrottledBody>.fromOpaque(cls).release()
            return nil
        }
        pointer = made
        add(headers)
    }

    /// A response that promises `size` body bytes but has only `partial`: libmicrohttpd sends the
    /// head and `partial`, then closes the connection (the `truncate` fault, through TLS too).
    init?(partial: PartialBody, promising size: Int, headers: [HTTPHeader]) {
        // Retained here, released by stubdPartialFree when MHD frees the response.
        let cls = Unmanaged.passRetained(partial).toOpaque()
        guard let made = MHD_create_response_from_callback(UInt64(size), 1024, stubdPartialRead, cls, stubdPartialFree) else {
            Unmanaged<PartialBody>.fromOpaque(cls).release()
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
