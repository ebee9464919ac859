import StubCore

/// graphql-core's OverlappingFieldsCanBeMerged rule: fields of one selection set (fragments and
/// inline fragments included) that share a response name must be the same field with the same
/// arguments, of types that do not conflict, and their own selections must merge in turn
/// (`Fields 'id' conflict because 'name' and 'id' are different fields. Use different aliases
/// on the fields to fetch both if this was intentional.`, at the first of the two fields).
///
/// The spec's algorithm with graphql-core's memos: each selection set's fields are collected
/// once, each pair of fragments and each pair of fields and fragment is compared once, and the
/// comparisons share one budget (graphql-core's 500,000): a document written to make them
/// explode ends with one problem rather than running for hours. Fragment chains are followed
/// with work lists, not recursion, and nested selections past the nesting limit are not
/// compared (that nesting is a problem of its own).
struct GraphQLOverlappingFields {
    let schema: GraphQLSchema
    let document: GraphQLOperations
    private(set) var problems: [String] = []

    /// A field where it was collected: the type it was selected on, and its definition there.
    struct Entry {
        let parent: String?
        let field: GraphQLOperations.Field
        let definition: GraphQLSchema.Field?
    }

    /// A selection set's fields by response name (in the order first met) and the fragments it
    /// spreads, inline fragments folded in.
    struct Collected {
        let key: String
        var names: [String] = []
        var groups: [String: [Entry]] = [:]
        var spreads: [String] = []
        /// `spreads` as a set, for a set of 100,000 spreads.
        var spreadSet: Set<String> = []
    }

    /// Two fields of one response name that cannot be merged: why, and where the first is.
    struct Conflict {
        let name: String
        let reason: String
        let line: Int
        let column: Int
    }

    var cache: [String: Collected] = [:]
    /// Pairs compared, with whether only as mutually exclusive (graphql-core's PairSet).
    var comparedFieldsAndFragments: [String: Bool] = [:]
    var comparedFragments: [String: Bool] = [:]
    var budget = 500_000
    let depthLimit = GraphQLLimits.defaultDepth

    init(schema: GraphQLSchema, document: GraphQLOperations) {
        self.schema = schema
        self.document = document
        for operation in document.operations {
            visit(operation.selections, parent: schema.root(operation.kind)?.name, at: operation.selectionPlace, find: true)
        }
        for fragment in document.fragmentList {
            visit(fragment.selections, parent: schema.compositeName(fragment.typeCondition), at: fragment.selectionPlace, find: true)
        }
    }

    /// Set once more conflicts are found than a document reports (graphql-core's 100 errors).
    var full = false
    var aborted: Bool { budget < 0 || full }

    /// Spends `cost` of the budget; false once it is spent, or once enough has been found.
    mutating func spend(_ cost: Int) -> Bool {
        budget -= cost
        return budget >= 0 && !full
    }

    /// `name` if it is an object, interface or union of the schema.
    /// The definition of `name` on `parent`, where that is an object or an interface.
    func definition(_ name: String, on parent: String?) -> GraphQLSchema.Field? {
        guard let parent, let type = schema.types[parent], [.object, .interface].contains(type.kind) else { return nil }
        return type.fields[name]
    }

    /// Every selection set of the document, each checked where graphql-core checks one: all
    /// but inline fragments' (folded into the set around them), and only sets with two
    /// selections or an inline fragment.
    private mutating func visit(_ selections: [GraphQLOperations.Selection], parent: String?, at place: GraphQLOperations.Place, find: Bool) {
        guard !aborted else { return }
        var isInline = false
        if case .inline? = selections.first { isInline = true }
        if find && (selections.count > 1 || isInline) {
            for conflict in conflictsWithin(selections, parent: parent, at: place) {
                problems.append("\(document.file):\(conflict.line):\(conflict.column): Fields '\(abbreviate(conflict.name))' conflict because "
                    + "\(conflict.reason). Use different aliases on the fields to fetch both if this was intentional.")
            }
            full = full || problems.count > GraphQLStubCheck.maxProblems
            if budget < 0 {
                problems.append("\(document.file):\(place.line):\(place.column): too many comparisons of fields with the same response name "
                    + "(graphql-core's limit): the check of this document was stopped here")
                return
            }
        }
        for selection in selections {
            switch selection {
            case .field(let field):
                guard !field.selections.isEmpty else { continue }
                let inner = schema.compositeName(definition(field.name, on: parent)?.type.namedType)
                visit(field.selections, parent: inner, at: field.selectionPlace, find: true)
            case .inline(let condition, let inner, _, _, _, _):
                visit(inner, parent: condition.map { schema.compositeName($0) } ?? parent, at: place, find: false)
            case .spread: break
            }
        }
    }

    /// The fields and spreads of a selection set whose type is `parent`, once per set.
    mutating func collect(_ selections: [GraphQLOperations.Selection], parent: String?, at place: GraphQLOperations.Place) -> Collected {
        let key = "\(parent ?? "")@\(place.line):\(place.column)"
        if let known = cache[key] { return known }
        var collected = Collected(key: key)
        gather(selections, parent: parent, into: &collected)
        cache[key] = collected
        return collected
    }

    private func gather(_ selections: [GraphQLOperations.Selection], parent: String?, into collected: inout Collected) {
        for selection in selections {
            switch selection {
            case .field(let field):
                let key = field.responseKey
                if collected.groups[key] == nil { collected.names.append(key) }
                collected.groups[key, default: []].append(Entry(parent: parent, field: field, definition: definition(field.name, on: parent)))
            case .spread(let name, _, _, _, _):
                if document.fragments[name] != nil, collected.spreadSet.insert(name).inserted { collected.spreads.append(name) }
            case .inline(let condition, let inner, _, _, _, _):
                gather(inner, parent: condition.map(known) ?? parent, into: &collected)
            }
        }
    }

    /// A fragment's fields, collected on its type condition.
    mutating func collect(fragment name: String) -> Collected? {
        guard let fragment = document.fragments[name] else { return nil }
        return collect(fragment.selections, parent: known(fragment.typeCondition), at: fragment.selectionPlace)
    }

    /// `name` where the schema has that type (a built-in scalar too), as graphql-core's
    /// `type_from_ast` finds it: a fragment on `String` is collected on `String`, not on nothing.
    func known(_ name: String) -> String? {
        schema.types[name] != nil || GraphQLSchema.builtInScalars.contains(name) ? name : nil
    }

    /// graphql-core's `maybe_abbreviate`.
    func abbreviate(_ text: String) -> String {
        text.count > 1000 ? String(text.prefix(1000)) + "..." : text
    }
}
