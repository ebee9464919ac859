import StubCore

/// graphql-core's NoFragmentCycles rule: a fragment that spreads itself, directly or through
/// others, can never be expanded. Each cycle is reported once, at its first spread, in
/// graphql-core's words ("Cannot spread fragment 'A' within itself via 'B'."). The search keeps
/// its own stack, so a chain of 100,000 fragments costs memory, not the thread's stack.
struct GraphQLFragmentCycles {
    let document: GraphQLOperations
    private(set) var problems: [String] = []

    /// A fragment spread, where it is written.
    private struct Spread {
        let name: String
        let line: Int
        let column: Int
    }

    init(_ document: GraphQLOperations) {
        self.document = document
        var visited: Set<String> = []
        for fragment in document.fragments.values.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) }) {
            search(from: fragment, &visited)
        }
    }

    /// The spreads of a selection set and of the sets inside it (not of the fragments they
    /// spread), in graphql-core's order: a set's own spreads, then its inner sets, last first.
    private static func spreads(in selections: [GraphQLOperations.Selection]) -> [Spread] {
        var found: [Spread] = []
        var sets = [selections]
        while let set = sets.popLast() {
            for selection in set {
                switch selection {
                case .spread(let name, let line, let column, _, _): found.append(Spread(name: name, line: line, column: column))
                case .field(let field): if !field.selections.isEmpty { sets.append(field.selections) }
                case .inline(_, let inner, _, _, _, _): sets.append(inner)
                }
            }
        }
        return found
    }

    /// graphql-core's depth-first search from `root`, each fragment searched once (`visited`):
    /// a spread of a fragment that is on the current path closes a cycle.
    private mutating func search(from root: GraphQLOperations.Fragment, _ visited: inout Set<String>) {
        guard visited.insert(root.name).inserted else { return }
        let first = GraphQLFragmentCycles.spreads(in: root.selections)
        guard !first.isEmpty else { return }
        // The spreads followed to where the search is, and where on that path each fragment
        // being searched begins.
        var path: [Spread] = []
        var begins: [String: Int] = [root.name: 0]
        var stack: [(name: String, spreads: [Spread], next: Int)] = [(root.name, first, 0)]
        while let top = stack.last {
            guard top.next < top.spreads.count else {
                stack.removeLast()
                begins[top.name] = nil
                if !stack.isEmpty { path.removeLast() }
                continue
            }
            stack[stack.count - 1].next += 1
            let spread = top.spreads[top.next]
            path.append(spread)
            if let begin = begins[spread.name] {
                let via = path[begin..<(path.count - 1)].map { "'\($0.name)'" }.joined(separator: ", ")
                let place = path[begin]
                problems.append("\(document.file):\(place.line):\(place.column): Cannot spread fragment '\(spread.name)' within itself"
                    + (via.isEmpty ? "." : " via \(via)."))
                path.removeLast()
                continue
            }
            // Unknown fragments (another rule's problem), ones searched before and ones that
            // spread nothing are not entered.
            guard let fragment = document.fragments[spread.name], visited.insert(spread.name).inserted else {
                path.removeLast()
                continue
            }
            let spreads = GraphQLFragmentCycles.spreads(in: fragment.selections)
            guard !spreads.isEmpty else {
                path.removeLast()
                continue
            }
            begins[spread.name] = path.count
            stack.append((spread.name, spreads, 0))
        }
    }
}
