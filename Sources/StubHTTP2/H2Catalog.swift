import StubCore

/// A catalog as HTTP/2 streams answer from it: the variants by key, made once per load, so a
/// prepared answer is one array read.
package final class H2Catalog: Sendable {
    /// The catalog itself, which plans.
    package let catalog: StubCatalog
    /// Every variant, by its key (`StubCatalog.variantKey`).
    let variants: [Variant]

    /// Takes the variants of `catalog` in key order.
    package init(_ catalog: StubCatalog) {
        self.catalog = catalog
        variants = catalog.allVariants
    }
}
