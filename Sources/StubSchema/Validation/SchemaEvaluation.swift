import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One check of one instance: the problems found, where checking is in the instance, what the
/// applicators evaluated (for `unevaluated…`), and the budget that bounds it.
///
/// Every check is bounded: a step is one schema applied to one value (or one regex thread on
/// one character), and checking stops with a problem once the steps or the deadline run out, so
/// a schema that branches exponentially (`anyOf` of itself) or a request built against it
/// costs a bounded amount of time.
struct SchemaEvaluation {
    /// Where in the instance, as keys and indices.
    enum Token {
        case key(String)
        case index(Int)
    }

    /// What the applicators that held evaluated: property names, and items by index.
    struct Annotations {
        var properties: Set<String> = []
        var allProperties = false
        var items = 0
        var allItems = false
        var itemIndices: Set<Int> = []

        mutating func merge(_ other: Annotations) {
            properties.formUnion(other.properties)
            allProperties = allProperties || other.allProperties
            items = max(items, other.items)
            allItems = allItems || other.allItems
            itemIndices.formUnion(other.itemIndices)
        }
    }

    let root: String
    let arena: SchemaArena
    let stepLimit: Int
    let deadline: UInt64?
    var steps = 0
    var exhausted = false
    var depth = 0
    var location: [Token] = []
    /// Schema resources entered, outermost first, for `$dynamicRef`.
    var scope: [String] = []

    init(root: String, arena: SchemaArena, budget: SchemaBudget) {
        self.root = root
        self.arena = arena
        stepLimit = budget.steps
        deadline = budget.milliseconds.map { SchemaEvaluation.now() + UInt64($0) * 1_000_000 }
    }

    /// Counts a step; false once the budget is spent.
    mutating func step(_ count: Int = 1) -> Bool {
        if exhausted { return false }
        steps += count
        if steps > stepLimit { exhausted = true }
        if let deadline, steps & 1023 < count || count > 1023, SchemaEvaluation.now() > deadline { exhausted = true }
        return !exhausted
    }

    var path: String {
        var out = root
        for token in location {
            switch token {
            case .key(let key): out = SchemaEvaluation.child(out, key)
            case .index(let i): out += "[\(i)]"
            }
        }
        return out
    }

    /// `$.data` for a plain key, `$["odd key"]` for another.
    static func child(_ path: String, _ key: String) -> String {
        let plain = !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
        return plain ? "\(path).\(key)" : "\(path)[\(JSONValue.string(key).serialized())]"
    }

    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }
}

/// How much one check may cost.
package struct SchemaBudget: Sendable {
    /// Schema applications and regex steps.
    package var steps: Int
    /// Wall time, if bounded.
    package var milliseconds: Int?

    /// A budget.
    package init(steps: Int, milliseconds: Int? = nil) {
        self.steps = steps
        self.milliseconds = milliseconds
    }

    /// For files checked by `check` and imports: large, no deadline.
    package static let files = SchemaBudget(steps: 50_000_000)
    /// For a request on the serving path: 100 ms at most.
    package static let request = SchemaBudget(steps: 2_000_000, milliseconds: 100)
}
