import StubCore

/// The keywords of numbers, strings, arrays and objects.
extension SchemaEvaluation {
    mutating func numberHolds(_ node: SchemaNode, _ number: JSONNumber, _ problems: inout [SchemaProblem]?) -> Bool {
        let n = number.value
        var valid = true
        let shown = JSONValue.number(number).serialized()
        func bound(_ broken: Bool, _ message: @autoclosure () -> String, _ problems: inout [SchemaProblem]?, _ me: inout SchemaEvaluation) -> Bool {
            guard broken else { return true }
            valid = false
            return me.fail(&problems, message())
        }
        if let min = node.minimum, !bound(n < min, "expected at least \(JSONNumber.format(min)), found \(shown)", &problems, &self) { return false }
        if let min = node.exclusiveMinimum, !bound(n <= min, "expected more than \(JSONNumber.format(min)), found \(shown)", &problems, &self) { return false }
        if let max = node.maximum, !bound(n > max, "expected at most \(JSONNumber.format(max)), found \(shown)", &problems, &self) { return false }
        if let max = node.exclusiveMaximum, !bound(n >= max, "expected less than \(JSONNumber.format(max)), found \(shown)", &problems, &self) { return false }
        if let m = node.multipleOf, !bound(!SchemaEvaluation.isMultiple(n, of: m), "expected a multiple of \(JSONNumber.format(m)), found \(shown)", &problems, &self) {
            return false
        }
        switch node.format {
        case "int32"?: if !bound(n < -2_147_483_648 || n > 2_147_483_647 || !number.isInteger, "\(shown) is not an int32", &problems, &self) { return false }
        case "int64"?: if !bound(abs(n) > 9.3e18 || !number.isInteger, "\(shown) is not an int64", &problems, &self) { return false }
        default: break
        }
        return valid
    }

    /// `n` is a whole multiple of `m`, allowing for decimal fractions binary doubles cannot hold
    /// (0.0075 is a multiple of 0.0001).
    static func isMultiple(_ n: Double, of m: Double) -> Bool {
        let q = n / m
        guard q.isFinite else { return false }
        return abs(q - q.rounded()) <= 1e-9 * max(1, abs(q))
    }

    mutating func stringHolds(_ node: SchemaNode, _ s: String, _ problems: inout [SchemaProblem]?) -> Bool {
        var valid = true
        if node.minLength != nil || node.maxLength != nil {
            // JSON Schema counts code points, not what a reader sees as characters.
            let count = s.unicodeScalars.count
            if let min = node.minLength, count < min {
                valid = false
                if !fail(&problems, "expected at least \(min) characters, found \(count)") { return false }
            }
            if let max = node.maxLength, count > max {
                valid = false
                if !fail(&problems, "expected at most \(max) characters, found \(count)") { return false }
            }
        }
        if let regex = node.pattern {
            var used = 0
            let matched = regex.matches(s, steps: &used, limit: max(0, stepLimit - steps))
            guard step(used) else { return false }
            if matched != true {
                valid = false
                if !fail(&problems, "\(SchemaEvaluation.show(.string(s))) does not match the pattern \(regex.pattern)") { return false }
            }
        }
        if let format = node.format, !StringFormats.holds(format, s) {
            valid = false
            if !fail(&problems, "\(SchemaEvaluation.show(.string(s))) is not a valid \(format)") { return false }
        }
        return valid
    }

    mutating func arrayHolds(_ node: SchemaNode, _ items: [JSONValue], _ problems: inout [SchemaProblem]?, _ annotations: inout Annotations) -> Bool {
        var valid = true
        if let min = node.minItems, items.count < min {
            valid = false
            if !fail(&problems, "expected at least \(min) items, found \(items.count)") { return false }
        }
        if let max = node.maxItems, items.count > max {
            valid = false
            if !fail(&problems, "expected at most \(max) items, found \(items.count)") { return false }
        }
        if node.uniqueItems, let (a, b) = JSONEquality.firstDuplicate(items) {
            valid = false
            if !fail(&problems, "items \(a) and \(b) are equal; expected unique items") { return false }
        }
        for (index, item) in items.enumerated() {
            let schema = index < node.prefixItems.count ? node.prefixItems[index] : node.items
            guard let schema else { break }
            location.append(.index(index))
            let held = check(schema, item, &problems)
            location.removeLast()
            if held == nil {
                valid = false
                if problems == nil || exhausted { return false }
            }
        }
        if arena.tracksAnnotations {
            if node.items != nil { annotations.allItems = true } else { annotations.items = max(annotations.items, min(items.count, node.prefixItems.count)) }
        }
        if let contains = node.contains {
            var matching = 0
            for (index, item) in items.enumerated() {
                var quiet: [SchemaProblem]?
                if check(contains, item, &quiet) != nil {
                    matching += 1
                    if arena.tracksAnnotations { annotations.itemIndices.insert(index) }
                }
                if exhausted { return false }
            }
            if matching < node.minContains {
                valid = false
                let message = node.minContains == 1 ? "contains no item that matches \"contains\"" : "expected at least \(node.minContains) items that match \"contains\", found \(matching)"
                if !fail(&problems, message) { return false }
            }
            if let max = node.maxContains, matching > max {
                valid = false
                if !fail(&problems, "expected at most \(max) items that match \"contains\", found \(matching)") { return false }
            }
        }
        if let rest = node.unevaluatedItems, valid {
            for (index, item) in items.enumerated() where !annotations.allItems && index >= annotations.items && !annotations.itemIndices.contains(index) {
                location.append(.index(index))
                let held = check(rest, item, &problems)
                location.removeLast()
                if held == nil {
                    valid = false
                    if problems == nil { return false }
                }
            }
            annotations.allItems = true
        }
        return valid
    }

    mutating func objectHolds(_ node: SchemaNode, _ members: [(key: String, value: JSONValue)], _ problems: inout [SchemaProblem]?,
                              _ annotations: inout Annotations) -> Bool {
        var valid = true
        for key in node.required where !members.contains(where: { ExactKey($0.key) == ExactKey(key) }) {
            valid = false
            if !fail(&problems, "missing required key \(JSONValue.string(key).serialized())") { return false }
        }
        if let min = node.minProperties, members.count < min {
            valid = false
            if !fail(&problems, "expected at least \(min) keys, found \(members.count)") { return false }
        }
        if let max = node.maxProperties, members.count > max {
            valid = false
            if !fail(&problems, "expected at most \(max) keys, found \(members.count)") { return false }
        }
        for (key, required) in node.dependentRequired where members.contains(where: { $0.key == key }) {
            for other in required where !members.contains(where: { $0.key == other }) {
                valid = false
                if !fail(&problems, "key \(JSONValue.string(key).serialized()) requires key \(JSONValue.string(other).serialized())") { return false }
            }
        }
        for (key, schema) in node.dependentSchemas where members.contains(where: { $0.key == key }) {
            if let more = check(schema, .object(members), &problems) { annotations.merge(more) } else {
                valid = false
                if problems == nil { return false }
            }
        }
        if !memberHolds(node, members, &problems, &annotations) {
            valid = false
            if problems == nil { return false }
        }
        if let rest = node.unevaluatedProperties, valid {
            for (key, value) in members where !annotations.allProperties && !annotations.properties.contains(key) {
                location.append(.key(key))
                let held = check(rest, value, &problems)
                location.removeLast()
                if held == nil {
                    valid = false
                    if problems == nil { return false }
                }
            }
            annotations.allProperties = true
        }
        return valid
    }

    /// `properties`, `patternProperties`, `additionalProperties` and `propertyNames`, key by key.
    private mutating func memberHolds(_ node: SchemaNode, _ members: [(key: String, value: JSONValue)], _ problems: inout [SchemaProblem]?,
                                      _ annotations: inout Annotations) -> Bool {
        var valid = true
        let tracks = arena.tracksAnnotations
        for (key, value) in members {
            if let names = node.propertyNames {
                var quiet: [SchemaProblem]?
                if check(names, .string(key), &quiet) == nil {
                    valid = false
                    if !fail(&problems, "key \(SchemaEvaluation.show(.string(key))) does not fit \"propertyNames\"") { return false }
                }
            }
            var schemas: [SchemaNode] = []
            if let property = node.properties[ExactKey(key)] { schemas.append(property) }
            for (regex, schema) in node.patternProperties {
                var used = 0
                let matched = regex.matches(key, steps: &used, limit: max(0, stepLimit - steps))
                guard step(used) else { return false }
                if matched == true { schemas.append(schema) }
            }
            if schemas.isEmpty, let extra = node.additionalProperties {
                if extra.always == false {
                    location.append(.key(key))
                    let keep = fail(&problems, "unexpected key \(JSONValue.string(key).serialized())")
                    location.removeLast()
                    valid = false
                    if !keep { return false }
                    continue
                }
                schemas.append(extra)
            }
            if tracks, !schemas.isEmpty { annotations.properties.insert(key) }
            location.append(.key(key))
            for schema in schemas where check(schema, value, &problems) == nil {
                valid = false
                if problems == nil || exhausted { location.removeLast(); return false }
            }
            location.removeLast()
        }
        return valid
    }
}
