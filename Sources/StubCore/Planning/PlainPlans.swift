/// The plans of variants whose answer depends on nothing but being chosen: no template, stream,
/// fault, delay or throttle. Made once per catalog and shared by every request that picks such a
/// variant by its `when` or as the default, with no control, override, base delay or GraphQL
/// operation. Otherwise each such request would build the same plan field by field, and free it.
/// A shared plan is never written: `ResponsePlan` copies its storage before any change.
package struct PlainPlans: Sendable {
    /// Two per variant key: chosen by `when` at `2 * key`, as the default at `2 * key + 1`.
    private let plans: [ResponsePlan?]

    /// The plain plans of `routes`' variants, in variant-key order (`StubCatalog.variantKey`).
    init(routes: [Route]) {
        var plans: [ResponsePlan?] = []
        var key = 0
        for route in routes {
            for (index, variant) in route.variants.enumerated() {
                let plain = PlainPlans.isPlain(variant)
                for selection in [ResponsePlan.Selection.when, .default] {
                    plans.append(plain ? ResponsePlanner.plan(of: variant, index: index, key: key, route: route, selection: selection) : nil)
                }
                key += 1
            }
        }
        self.plans = plans
    }

    /// The shared plan for the variant with `key` chosen by `selection`, when it has one.
    func plan(key: Int, selection: ResponsePlan.Selection) -> ResponsePlan? {
        switch selection {
        case .when: return plans[2 &* key]
        case .default: return plans[2 &* key &+ 1]
        case .request, .sequence, .override: return nil
        }
    }

    /// True for a variant that is answered the same way on every request that chooses it.
    static func isPlain(_ variant: Variant) -> Bool {
        variant.template == nil && variant.stream == nil && variant.fault == nil && variant.delay == nil
            && variant.throttleBytesPerSecond == nil
    }
}
