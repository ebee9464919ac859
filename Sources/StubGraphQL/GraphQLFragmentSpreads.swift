import StubCore

/// graphql-core's NoUnusedFragments and PossibleFragmentSpreads rules, in its words: a fragment
/// no operation reaches ("Fragment 'F' is never used.", at its `fragment` keyword), and a spread
/// whose type condition can never match where it is spread ("Fragment 'F' cannot be spread here
/// as objects of type 'User' can never be of type 'Repository'.", at its `...`).
struct GraphQLFragmentSpreads: GraphQLDocumentRule {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    var problems: [String] = []

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for operation in document.operations {
            check(operation.selections, parent: schema.root(operation.kind).map(\.name))
        }
        let fragments = document.fragments.values.sorted(by: { ($0.line, $0.column) < ($1.line, $1.column) })
        for fragment in fragments {
            check(fragment.selections, parent: schema.compositeName(fragment.typeCondition))
        }
        let used = reached()
        for fragment in fragments where !used.contains(fragment.name) {
            add(fragment.line, fragment.column, "Fragment '\(fragment.name)' is never used.")
        }
    }

    /// The fragments the operations spread, directly or through other fragments. A work list,
    /// not recursion: a long chain of fragments costs memory, not the thread's stack.
    private func reached() -> Set<String> {
        var used: Set<String> = []
        var sets = document.operations.map(\.selections)
        while let set = sets.popLast() {
            for selection in set {
                switch selection {
                case .field(let field): sets.append(field.selections)
                case .inline(_, let inner, _, _, _, _): sets.append(inner)
                case .spread(let name, _, _, _, _):
                    if let fragment = document.fragments[name], used.insert(name).inserted { sets.append(fragment.selections) }
                }
            }
        }
        return used
    }

    /// `name` if it is an object, interface or union of the schema.
    /// graphql-core's `do_types_overlap`: whether some object type can be both `a` and `b`.
    func overlap(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        guard let first = schema.types[a], let second = schema.types[b] else { return true }
        switch (first.kind == .object, second.kind == .object) {
        case (true, true): return false
        case (true, false): return second.possibleTypes.contains(a)
        case (false, true): return first.possibleTypes.contains(b)
        case (false, false): return !first.possibleTypes.isDisjoint(with: second.possibleTypes)
        }
    }

    /// Checks the spreads of a selection set whose type is `parent` (nil where it is not a
    /// composite type the schema knows, and there is nothing to compare).
    private mutating func check(_ selections: [GraphQLOperations.Selection], parent: String?) {
        for selection in selections {
            switch selection {
            case .field(let field):
                guard !field.selections.isEmpty else { continue }
                var inner: String?
                if let parent, let type = schema.types[parent], let definition = GraphQLBodyCheck.field(field.name, of: type, in: schema) {
                    inner = schema.compositeName(definition.type.namedType)
                }
                check(field.selections, parent: inner)
            case .spread(let name, let line, let column, _, _):
                guard let parent, let fragment = document.fragments[name], let type = schema.compositeName(fragment.typeCondition),
                      !overlap(type, parent) else { continue }
                add(line, column, "Fragment '\(name)' cannot be spread here as objects of type '\(parent)' can never be of type '\(type)'.")
            case .inline(let condition, let inner, let line, let column, _, _):
                guard let condition else {
                    check(inner, parent: parent)
                    continue
                }
                let type = schema.compositeName(condition)
                if let parent, let type, !overlap(type, parent) {
                    add(line, column, "Fragment cannot be spread here as objects of type '\(parent)' can never be of type '\(type)'.")
                }
                check(inner, parent: type)
            }
        }
    }
}
