import StubCore
import StubSchema

/// A value that fits a schema, made the same way every time: the schema's own example or
/// default when it fits, an enum's first value, a plausible value for a format (a fixed UUID, a
/// date), a string a `pattern` matches, numbers inside their bounds, and for objects the
/// required keys (all keys with `allKeys`), `allOf` parts merged with what each requires. Where
/// a schema offers choices (`oneOf`, `anyOf`), the first that makes a valid value wins, checked
/// with the validator itself; for `oneOf`, valid for that option alone (see `choose`). A schema that contains itself (a tree) stops where it would
/// repeat: an empty array, or the key left out.
final class SchemaSynthesizer {
    let document: OpenAPIDocument
    /// Optional keys too; set for a while by `choose` when a value must tell `oneOf` options apart.
    var allKeys: Bool
    let compiler: SchemaCompiler
    /// What could not be made to fit, one line each (a schema that admits no value stubd can make).
    private(set) var warnings: [String] = []
    /// Refs being expanded, to stop a schema that contains itself.
    var expanding: [String] = []
    /// The longest string made for a `minLength`, and the most keys made for a `minProperties`:
    /// a spec asking for more (`1e19`) gets a body named as not fitting, not one that fills memory.
    static let longestString = 1 << 20
    static let mostProperties = 10_000

    init(document: OpenAPIDocument, allKeys: Bool, compiler: SchemaCompiler? = nil) {
        self.document = document
        self.allKeys = allKeys
        self.compiler = compiler ?? document.compiler()
    }

    /// A value for `schema`, checked against it; `location` names it in warnings.
    func value(_ schema: JSONValue?, location: String = "") -> JSONValue {
        let made = fittingValue(schema, location: location)
        if let problem = made.problem { warnings.append("\(location): the body made from the schema does not fit it: \(problem)") }
        return made.value
    }

    /// A value for `schema`, and the first way it breaks the schema when none could be made that fits.
    func fittingValue(_ schema: JSONValue?, location: String = "") -> (value: JSONValue, problem: String?) {
        guard let schema else { return (.null, nil) }
        let made = make(schema) ?? .null
        return (made, compiler.compile(schema, location: location).validate(made).first.map { "\($0)" })
    }

    /// True when `value` fits `schema`.
    func fits(_ value: JSONValue, _ schema: JSONValue) -> Bool {
        compiler.compile(schema).isValid(value)
    }

    /// A value for `schema`, or nil where a schema would repeat inside itself.
    func make(_ schema: JSONValue, variant: Int = 0) -> JSONValue? {
        if case .bool(let allowed) = schema { return allowed ? .null : nil }
        if case .string(let ref)? = schema["$ref"] {
            guard !expanding.contains(ref), expanding.count < 32, let target = document.resolve(ref) else { return nil }
            expanding.append(ref)
            defer { expanding.removeLast() }
            return make(target, variant: variant)
        }
        let flat = flatten(schema)
        if let own = ownExample(flat, original: schema) { return own }
        if let fixed = flat["const"] { return fixed }
        if case .array(let options)? = flat["enum"], !options.isEmpty {
            let usable = options.filter { $0 != .null || flat["nullable"] == .bool(true) }
            return usable.isEmpty ? options[0] : usable[variant % usable.count]
        }
        let nullable = flat["nullable"] == .bool(true) || flat["x-nullable"] == .bool(true)
        // Where null stood before, the smallest value instead (required keys only): `--all-keys`
        // filling every object that may be null made Stripe's error envelope twelve times longer.
        let kept = allKeys
        if nullable { allKeys = false }
        defer { allKeys = kept }
        for key in ["oneOf", "anyOf"] {
            if case .array(let options)? = flat[key], !options.isEmpty {
                // The options' value first (`nullable` is not carried into them); null only when none fits.
                let chosen = choose(options, from: flat, key: key, variant: variant)
                guard nullable, chosen.map({ fits($0, schema) }) != true, fits(.null, schema) else { return chosen }
                return .null
            }
        }
        // A value that may be null: null where every reading of `nullable` allows it, which is
        // beside a `type` of its own in OpenAPI 3.0 (3.0.3 gives `nullable` no meaning without one,
        // and 3.1 none at all). Elsewhere (beside an `allOf` or a `$ref` alone) a value is made,
        // and null only when none fits.
        if nullable, nullMeansNull(schema), fits(.null, schema) { return .null }
        guard nullable else { return populated(flat, variant: variant) }
        let value = populated(flat, variant: variant)
        return fits(value, schema) || !fits(.null, schema) ? value : .null
    }

    /// True when `nullable` (or Swagger's `x-nullable`) in `schema` admits null for every reader:
    /// OpenAPI 3.0 or Swagger 2.0, beside a `type` in the same schema.
    private func nullMeansNull(_ schema: JSONValue) -> Bool {
        document.dialect == .draft4 && schema["type"] != nil
    }

    /// A value of the type `flat` says (an object when it says none), or null for a schema that
    /// says nothing at all.
    private func populated(_ flat: JSONValue, variant: Int) -> JSONValue {
        let type = SchemaSynthesizer.type(of: flat)
        if flat["type"] == nil && flat["properties"] == nil && flat["items"] == nil && flat["additionalProperties"] == nil { return .null }
        switch type {
        case "string": return .string(string(flat, variant: variant))
        case "integer": return .number(integer(flat, variant: variant))
        // A number of an integer format (Nakadi's `distance: {type: number, format: int64}`) is a whole one.
        case "number" where ["int32", "int64"].contains(flat["format"]?.scalarText ?? ""): return .number(integer(flat, variant: variant))
        case "number": return number(flat, variant: variant)
        case "boolean": return .bool(variant % 2 == 0)
        case "null": return .null
        case "array": return array(flat)
        default: return object(flat, variant: variant)
        }
    }

    /// The schema's own `example`, `examples` or `default`, when it fits the schema.
    private func ownExample(_ flat: JSONValue, original: JSONValue) -> JSONValue? {
        var candidates: [JSONValue] = []
        if let example = flat["example"] { candidates.append(example) }
        if case .array(let list)? = flat["examples"] { candidates += list }
        if let value = flat["default"] { candidates.append(value) }
        for candidate in candidates {
            guard let value = document.exampleValue(candidate) else { continue }
            if fits(value, original) { return value }
            // The document's own example breaks its schema: said once per schema, not used.
            let owner = expanding.last ?? "an inline schema"
            let note = "the document's own example of \(owner) does not fit its schema; a value made from the schema is used instead"
            if !warnings.contains(note) { warnings.append(note) }
        }
        return nil
    }

    /// The first option that makes a value valid for the whole schema; for `oneOf`, valid for
    /// that option alone. A value made the plain way often fits several options (their required
    /// keys alike); each option is then tried with the discriminator's value for it, with its
    /// optional keys filled (where the options differ, as an array of objects against one of
    /// strings), and with the next variant of its values, before the next option. Nil options
    /// fail; when none fits, the first value made, which the caller reports.
    private func choose(_ options: [JSONValue], from flat: JSONValue, key: String, variant: Int) -> JSONValue? {
        var first: JSONValue?
        var combined = flat
        combined.remove(key)
        // `nullable` beside the choice is the choice's own (the caller's); an option made nullable
        // by it would be made null.
        combined.remove("nullable")
        combined.remove("x-nullable")
        for option in options {
            let schema = SchemaSynthesizer.merge(combined, document.dereferenced(option) ?? option)
            let tag = discriminator(flat, for: option)
            // With `allKeys` already on, the first two tries are one.
            let tries = [(allKeys, variant), (true, variant), (allKeys, variant + 1), (true, variant + 1)]
            for (i, attempt) in tries.enumerated() where !tries[..<i].contains(where: { $0 == attempt }) {
                guard let plain = made(schema, allKeys: attempt.0, variant: attempt.1) else { break }
                // The discriminator's value first; a document whose values break its own
                // schemas (no mapping, and an enum of other names) gets the value as made.
                var candidates = [plain]
                if let tag, case .object(var members) = plain {
                    members.removeAll { $0.key == tag.property }
                    members.insert((tag.property, .string(tag.value)), at: 0)
                    candidates.insert(.object(members), at: 0)
                }
                for candidate in candidates {
                    if first == nil { first = candidate }
                    if fits(candidate, flat) { return candidate }
                }
                // `anyOf` takes any option that fits; only `oneOf` needs the search.
                if key != "oneOf" { break }
            }
        }
        return first
    }

    /// A value made with `allKeys` as given for the while.
    private func made(_ schema: JSONValue, allKeys: Bool, variant: Int) -> JSONValue? {
        let kept = self.allKeys
        self.allKeys = allKeys
        defer { self.allKeys = kept }
        return make(schema, variant: variant)
    }

    /// The discriminator's property and its value for `option` (a `$ref`): the mapping's key
    /// for it, else the referenced schema's name. A mapping names a schema by a ref (which the
    /// loaded document may have made longer: it is compared by its end) or by its bare name.
    private func discriminator(_ flat: JSONValue, for option: JSONValue) -> (property: String, value: String)? {
        guard case .string(let property)? = flat["discriminator"]?["propertyName"], case .string(let ref)? = option["$ref"],
              let name = ref.split(separator: "/").last.map(String.init) else { return nil }
        if case .object(let mapping)? = flat["discriminator"]?["mapping"] {
            for (value, target) in mapping {
                guard case .string(let target) = target else { continue }
                if target.contains("/") ? ref.hasSuffix(target.drop { $0 != "#" }) : target == name { return (property, value) }
            }
        }
        return (property, name)
    }

    /// `type`, or the first non-null of a 3.1 type array; objects when only `properties` say so.
    static func type(of schema: JSONValue) -> String {
        switch schema["type"] {
        case .string(let t)?: return t
        case .array(let list)?: return list.compactMap(\.scalarText).first { $0 != "null" } ?? "null"
        default: return schema["items"] != nil ? "array" : "object"
        }
    }
}

extension JSONValue {
    /// Removes `key` from an object.
    mutating func remove(_ key: String) {
        guard case .object(let members) = self else { return }
        self = .object(members.filter { $0.key != key })
    }
}
