import StubCore
import StubHTTP2

/// A catalog with one libmicrohttpd response per variant, built at load time and shared by every
/// request (MHD refcounts them), indexed by the variant's key in the catalog. Requests hold this
/// object, so a reload never frees a response that an in-flight request is about to queue.
final class PreparedCatalog: Sendable {
    let catalog: StubCatalog
    /// Owns the responses.
    private let responses: [MHDResponse]
    /// libmicrohttpd's response of each variant, side by side: a request reads one word here and
    /// goes straight to libmicrohttpd's object, without touching (and counting) a Swift object
    /// that, with many routes, has long left the cache.
    private let pointers: [MHDResponse.Handle]
    /// The same catalog as HTTP/2 streams answer from it.
    let h2: H2Catalog

    init(_ catalog: StubCatalog) {
        self.catalog = catalog
        let variants = catalog.allVariants
        responses = variants.map { MHDResponse(bytes: $0.body, headers: $0.headers) }
        pointers = responses.map(\.handle)
        h2 = H2Catalog(catalog, variants: variants)
    }

    /// The prepared response of the variant with `key` (see `StubCatalog.variantKey`), valid while
    /// this catalog lives.
    func response(key: Int) -> MHDResponse.Handle {
        pointers[key]
    }
}
