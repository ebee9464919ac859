import StubCore

/// A catalog with one libmicrohttpd response per variant, built at load time and shared by every
/// request (MHD refcounts them), indexed by the variant's key in the catalog. Requests hold this
/// object, so a reload never frees a response that an in-flight request is about to queue.
final class PreparedCatalog: Sendable {
    let catalog: StubCatalog
    private let responses: [MHDResponse]

    init(_ catalog: StubCatalog) {
        self.catalog = catalog
        responses = catalog.allVariants.map { MHDResponse(bytes: $0.body, headers: $0.headers) }
    }

    /// The prepared response of the variant with `key` (see `StubCatalog.variantKey`).
    func response(key: Int) -> MHDResponse {
        responses[key]
    }
}
