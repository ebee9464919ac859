import StubCore

/// The comparisons of OverlappingFieldsCanBeMerged, after graphql-core's functions of the same
/// names: within one set, between two sets, between a set and a fragment, between fragments.
extension GraphQLOverlappingFields {
    mutating func conflictsWithin(_ selections: [GraphQLOperations.Selection], parent: String?, at place: GraphQLOperations.Place) -> [Conflict] {
        var conflicts: [Conflict] = []
        let collected = collect(selections, parent: parent, at: place)
        for name in collected.names {
            let group = collected.groups[name] ?? []
            guard group.count > 1 else { continue }
            for i in group.indices {
                for j in (i + 1)..<group.count where !aborted {
                    if let conflict = findConflict(false, name, group[i], group[j], depth: 0) { conflicts.append(conflict) }
                    // Past graphql-core's 100 errors nothing more is reported: stop comparing.
                    if conflicts.count > GraphQLStubCheck.maxProblems { full = true }
                    if aborted { return conflicts }
                }
            }
        }
        let spreads = collected.spreads
        guard !spreads.isEmpty, !collected.names.isEmpty || spreads.count > 1 else { return conflicts }
        for (i, spread) in spreads.enumerated() {
            betweenFieldsAndFragment(&conflicts, false, collected, spread, depth: 0)
            for other in spreads[(i + 1)...] {
                guard !aborted else { return conflicts }
                betweenFragments(&conflicts, false, spread, other, depth: 0)
            }
        }
        return conflicts
    }

    /// Whether a pair was compared before, as graphql-core's PairSet answers: a pair compared as
    /// not mutually exclusive covers both questions.
    private func compared(_ memo: [String: Bool], _ key: String, _ exclusive: Bool) -> Bool {
        guard let stored = memo[key] else { return false }
        return exclusive || !stored
    }

    /// The fields of `collected` against a fragment's, and the fragments that one spreads.
    mutating func betweenFieldsAndFragment(_ conflicts: inout [Conflict], _ exclusive: Bool, _ collected: Collected, _ fragment: String, depth: Int) {
        var pending = [fragment]
        while let name = pending.popLast() {
            guard spend(1), !collected.names.isEmpty else { return }
            let key = "\(collected.key)|\(name)"
            if compared(comparedFieldsAndFragments, key, exclusive) { continue }
            comparedFieldsAndFragments[key] = exclusive
            guard let other = collect(fragment: name), other.key != collected.key else { continue }
            between(&conflicts, exclusive, collected, other, depth: depth)
            pending += other.spreads.reversed()
        }
    }

    /// Two fragments' fields, then each against the fragments the other spreads.
    mutating func betweenFragments(_ conflicts: inout [Conflict], _ exclusive: Bool, _ first: String, _ second: String, depth: Int) {
        var pending = [(first, second)]
        while let (a, b) = pending.popLast() {
            guard spend(2) else { return }
            if a == b { continue }
            if compared(comparedFragments, "\(a)|\(b)", exclusive) || compared(comparedFragments, "\(b)|\(a)", exclusive) { continue }
            comparedFragments["\(a)|\(b)"] = exclusive
            guard let one = collect(fragment: a), let two = collect(fragment: b) else { continue }
            between(&conflicts, exclusive, one, two, depth: depth)
            let next = two.spreads.map { (a, $0) } + one.spreads.map { ($0, b) }
            pending += next.reversed()
        }
    }

    /// The fields of two sets that share response names.
    mutating func between(_ conflicts: inout [Conflict], _ exclusive: Bool, _ one: Collected, _ two: Collected, depth: Int) {
        guard !one.names.isEmpty, !two.names.isEmpty else { return }
        for name in one.names {
            guard spend(1) else { return }
            guard let others = two.groups[name] else { continue }
            for first in one.groups[name] ?? [] {
                for second in others {
                    guard !aborted else { return }
                    if let conflict = findConflict(exclusive, name, first, second, depth: depth) { conflicts.append(conflict) }
                }
            }
        }
    }

    /// Two fields of one response name: a conflict, placed at the first.
    mutating func findConflict(_ parentsExclusive: Bool, _ name: String, _ one: Entry, _ two: Entry, depth: Int) -> Conflict? {
        let objects = [one.parent, two.parent].allSatisfy { $0.flatMap { schema.types[$0]?.kind } == .object }
        let exclusive = parentsExclusive || (one.parent != two.parent && objects)
        let (type1, type2) = (one.definition?.type, two.definition?.type)
        guard spend(2) else { return nil }
        let (field1, field2) = (one.field, two.field)
        let simple = [field1, field2].allSatisfy { $0.arguments.isEmpty && $0.selections.isEmpty }
        if simple && type1 == type2 && field1.name == field2.name { return nil }
        func conflict(_ reason: String) -> Conflict { Conflict(name: name, reason: reason, line: field1.line, column: field1.column) }
        if !exclusive {
            if field1.name != field2.name {
                return conflict("'\(abbreviate(field1.name))' and '\(abbreviate(field2.name))' are different fields")
            }
            if !sameArguments(field1.arguments, field2.arguments) { return conflict("they have differing arguments") }
        }
        if let type1, let type2, typesConflict(type1, type2) {
            return conflict("they return conflicting types '\(type1)' and '\(type2)'")
        }
        guard !field1.selections.isEmpty, !field2.selections.isEmpty, depth < depthLimit else { return nil }
        let set1 = collect(field1.selections, parent: type1?.namedType, at: field1.selectionPlace)
        let set2 = collect(field2.selections, parent: type2?.namedType, at: field2.selectionPlace)
        var inner: [Conflict] = []
        between(&inner, exclusive, set1, set2, depth: depth + 1)
        for spread in set2.spreads { betweenFieldsAndFragment(&inner, exclusive, set1, spread, depth: depth + 1) }
        for spread in set1.spreads { betweenFieldsAndFragment(&inner, exclusive, set2, spread, depth: depth + 1) }
        for a in set1.spreads {
            for b in set2.spreads where !aborted { betweenFragments(&inner, exclusive, a, b, depth: depth + 1) }
        }
        guard !inner.isEmpty else { return nil }
        var message = ""
        for sub in inner {
            message += (message.isEmpty ? "" : " and ") + "subfields '\(abbreviate(sub.name))' conflict because \(sub.reason)"
            if message.count > 1000 { break }
        }
        return conflict(abbreviate(message))
    }

    /// Arguments the same by name and by value (input objects' fields in any order).
    private func sameArguments(_ one: [GraphQLArgument], _ two: [GraphQLArgument]) -> Bool {
        guard one.count == two.count else { return false }
        var values: [String: GraphQLValue] = [:]
        for argument in two { values[argument.name] = argument.value }
        return one.allSatisfy { argument in values[argument.name].map { key($0) == key(argument.value) } ?? false }
    }

    /// A value's text with input objects' fields sorted by name.
    private func key(_ value: GraphQLValue) -> String {
        switch value {
        case .list(let items): "[" + items.map(key).joined(separator: ",") + "]"
        case .object(let fields): "{" + fields.sorted { $0.name < $1.name }.map { "\($0.name):\(key($0.value))" }.joined(separator: ",") + "}"
        default: value.description
        }
    }

    /// graphql-core's `do_types_conflict`: lists and non-nulls must match; leaf types must be
    /// the same; composite types are compared field by field instead.
    private func typesConflict(_ one: GraphQLType, _ two: GraphQLType) -> Bool {
        switch (one, two) {
        case (.list(let a), .list(let b)): return typesConflict(a, b)
        case (.list, _), (_, .list): return true
        case (.nonNull(let a), .nonNull(let b)): return typesConflict(a, b)
        case (.nonNull, _), (_, .nonNull): return true
        case (.named(let a), .named(let b)):
            let leaf = { (name: String) in GraphQLSchema.builtInScalars.contains(name) || [.scalar, .enum].contains(schema.types[name]?.kind) }
            return (leaf(a) || leaf(b)) && a != b
        }
    }
}
