import StubSystem

/// Where a route's answer lives in memory, kept in one flat table by route index so that a
/// request to a route nobody asked for lately can ask for all of it at once: the route, its
/// variants and its default variant are separate allocations, and reading them one after the
/// other waits for memory once per allocation. Addresses only; the catalog owns the objects.
struct RouteHint: Sendable {
    /// The route object.
    let route: UInt
    /// The storage of the route's variants array (0 for none).
    let variants: UInt
    /// The default variant object.
    let variant: UInt
    /// The key of the route's first variant (see `StubCatalog.variantKey`).
    let firstVariantKey: Int

    init(_ route: Route, firstVariantKey: Int) {
        self.route = UInt(bitPattern: Unmanaged.passUnretained(route).toOpaque())
        // The array's header (count, capacity) sits before its first element.
        variants = route.variants.withUnsafeBufferPointer { $0.baseAddress.map { UInt(bitPattern: $0) - 32 } ?? 0 }
        variant = UInt(bitPattern: Unmanaged.passUnretained(route.defaultVariant).toOpaque())
        self.firstVariantKey = firstVariantKey
    }

    /// Asks for every line planning reads: the counts that retains write first, then the rest.
    @inline(__always)
    func prefetch() {
        guard let route = UnsafeRawPointer(bitPattern: route), let variant = UnsafeRawPointer(bitPattern: variant) else { return }
        Prefetch.forWriting(route)
        Prefetch.forWriting(variant)
        if let variants = UnsafeRawPointer(bitPattern: variants) { Prefetch.forReading(variants) }
        Prefetch.forReading(route + 64)
        Prefetch.forReading(variant + 64)
        Prefetch.forReading(variant + 128)
    }
}
