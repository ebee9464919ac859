import StubSystem

/// Where planning's first reads of a route lie, as identities and a span (nothing is kept alive
/// by them; the catalog holds the route): the route, its default variant and its variants'
/// storage, made with the catalog, one per route, beside the route's first variant key. With a
/// table too large for the cache these are three waits for memory one after the other (the
/// variants are found through the route); asked for together as planning starts, they overlap.
/// Kept for its measured gain: server CPU per request on the 10,000-route table 0.945× and 0.960×
/// on libmicrohttpd 0.9.75, 0.999× on 1.0.1 (user CPU 0.939×), 48–76 more instructions (paired runs,
/// bench/README.md). An earlier form kept raw addresses; these are identities and a span.
struct RouteHint: Sendable {
    /// The key of the route's first variant in the flat list of all variants.
    let firstVariantKey: Int
    let route: ObjectIdentifier
    let variant: ObjectIdentifier
    let variants: Prefetch.Span

    init(_ route: Route, firstVariantKey: Int) {
        self.firstVariantKey = firstVariantKey
        self.route = ObjectIdentifier(route)
        variant = ObjectIdentifier(route.defaultVariant)
        variants = Prefetch.Span(elementsOf: route.variants)
    }

    /// Asks for the route's and the default variant's first lines and the variants' storage.
    @inline(__always)
    func prefetch() {
        Prefetch.object(at: route, lines: 2)
        Prefetch.object(at: variant, lines: 3)
        Prefetch.span(variants)
    }
}
