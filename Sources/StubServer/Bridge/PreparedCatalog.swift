import CMicroHTTPD
import StubCore

/// A catalog with one libmicrohttpd response object per variant, built at load time and shared by
/// every request (MHD refcounts them). Requests hold this object, so a reload never frees a
/// response that an in-flight request is about to queue.
final class PreparedCatalog: @unchecked Sendable {
    let catalog: StubCatalog
    private let responses: [[OpaquePointer]]

    init(_ catalog: StubCatalog) {
        self.catalog = catalog
        responses = catalog.routes.map { route in
            route.variants.map { variant in
                ResponseFactory.make(body: variant.body, headers: variant.headers)
            }
        }
    }

    deinit {
        for list in responses { for r in list { MHD_destroy_response(r) } }
    }

    func response(route: Int, variant: Int) -> OpaquePointer {
        responses[route][variant]
    }
}

/// Builds libmicrohttpd response objects from bytes and headers.
enum ResponseFactory {
    /// A response owning a copy of `body` with `headers` added. Never nil for in-memory bodies
    /// except on allocation failure, which is fatal anyway.
    static func make(body: [UInt8], headers: [HTTPHeader]) -> OpaquePointer {
        let response = body.withUnsafeBytes { raw in
            // MUST_COPY: MHD keeps its own copy, so the Swift array can go away.
            MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress), .RESPMEM_MUST_COPY)
        }
        guard let response else { fatalError("libmicrohttpd could not allocate a response of \(body.count) bytes") }
        for header in headers {
            _ = MHD_add_response_header(response, header.name, header.value)
        }
        return response
    }
}
