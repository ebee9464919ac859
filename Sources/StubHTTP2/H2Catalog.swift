import StubCore

/// A catalog as HTTP/2 streams answer from it: the variants by key, made once per load, so a
/// prepared answer is one array read.
package final class H2Catalog: Sendable {
    /// The catalog itself, which plans.
    package let catalog: StubCatalog
    /// Every variant, by its key (`StubCatalog.variantKey`).
    let variants: [Variant]

    /// `variants` are `catalog.allVariants`, which the caller has made already.
    package init(_ catalog: StubCatalog, variants: [Variant]) {
        self.catalog = catalog
        self.variants = variants
    }
}
