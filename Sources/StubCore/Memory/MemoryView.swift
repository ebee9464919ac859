/// One request's view of what its route remembers: state values read at most once each, and
/// the generator and counter of the values that move. Made only for a route that remembers.
final class MemoryView {
    let memory: StubMemory
    let scope: Scope
    /// The route's service ("" outside one) and its state seed.
    let service: String
    let seed: [String: JSONValue]
    let routeID: String
    /// `X-Stub-Seed` on the request, if any.
    let requestSeed: UInt64?
    private var cache: [String: JSONValue?] = [:]
    private var draw: (generator: SeededGenerator, counter: Int)?
    private var drawSeed: UInt64 = 0
    /// The store's failure, if a read failed: the request is then answered 503.
    private(set) var failure: MemoryError?

    init(memory: StubMemory, scope: Scope, service: String, seed: [String: JSONValue], routeID: String, requestSeed: UInt64?) {
        self.memory = memory
        self.scope = scope
        self.service = service
        self.seed = seed
        self.routeID = routeID
        self.requestSeed = requestSeed
    }

    /// A state value of the service, nil when it has none.
    func state(_ name: String) -> JSONValue? {
        if let known = cache[name] { return known }
        var value: JSONValue?
        do { value = try memory.stateValue(name, service: service, scope: scope, seed: seed) } catch {
            failure = error
            value = nil
        }
        cache[name] = .some(value)
        return value
    }

    /// Forgets values read, after this request changed them; a render after it draws the same
    /// values again (the body is rendered once more, after the change).
    func forget() {
        cache = [:]
        if let draw { self.draw = (SeededGenerator(seed: drawSeed), draw.counter) }
    }

    /// A helper's value: the generator is seeded once per render from the request's seed, else
    /// the scope's, and the route's render count, so the same requests give the same values.
    func render(_ helper: TemplateHelper) -> String {
        if draw == nil {
            let n = memory.nextDraw(scope: scope, routeID: routeID)
            let base = requestSeed ?? memory.seed(of: scope)
            drawSeed = MemoryView.mix(base, routeID, requestSeed == nil ? n : 0)
            draw = (SeededGenerator(seed: drawSeed), n)
        }
        return helper.render(now: WallClock.unixSeconds(), generator: &draw!.generator, counter: draw!.counter)
    }

    /// A version 4 UUID from the same draw (a collection's generated id).
    func uuid() -> String { render(.uuid) }

    /// A 64-bit mix of a seed, a route and a count (FNV-1a over their bytes).
    static func mix(_ seed: UInt64, _ routeID: String, _ n: Int) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func eat(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for shift in stride(from: 0, to: 64, by: 8) { eat(UInt8(truncatingIfNeeded: seed >> UInt64(shift))) }
        for byte in routeID.utf8 { eat(byte) }
        for shift in stride(from: 0, to: 64, by: 8) { eat(UInt8(truncatingIfNeeded: UInt64(n) >> UInt64(shift))) }
        return hash
    }
}
