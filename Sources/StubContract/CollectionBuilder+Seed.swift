import StubCore

/// The seed: the objects of the document's examples, else one made from the item schema.
extension CollectionBuilder {
    /// A stand-in string id when nothing better can be made: a fixed UUID, as made seeds are the
    /// same every time.
    static let madeUUID = "3fa85f64-5717-4562-b3fc-2c963f66afa6"

    /// The examples' objects that carry an id of the collection's kind, the first of each id
    /// kept; when there are none, one object made from the item schema (the importer's way of
    /// making bodies) with its id filled in. The origin says which, for the report.
    mutating func seedObjects() -> (objects: [JSONValue], origin: String) {
        let at = "\(service)/\(folder)/\(seedName)"
        var objects: [JSONValue] = []
        var ids: [JSONValue] = []
        var unusable = 0
        for example in resource.examples {
            guard let id = example[resource.id], fits(id) else {
                unusable += 1
                continue
            }
            guard !ids.contains(id) else { continue }
            ids.append(id)
            objects.append(example)
        }
        if unusable > 0 {
            warnings.append("\(at): \(unusable) object(s) of the document's examples have no \(resource.ids == "integer" ? "integer" : "string") \"\(resource.id)\"; left out of the seed")
        }
        if !objects.isEmpty {
            // The collection answers a GET by id with these objects: the item schema is their contract.
            if let schema = resource.itemSchema {
                let validator = compiler.compile(schema, location: resource.itemPointer)
                for object in objects {
                    guard let problem = validator.validate(object).first else { continue }
                    warnings.append("\(at): the document's example object with \"\(resource.id)\" \(object[resource.id]?.serialized() ?? "") does not fit "
                                    + "the item schema at \(resource.itemPointer): \(problem); kept as the document has it")
                }
            }
            return (objects, "from the document's examples")
        }
        guard let schema = resource.itemSchema else { return ([], "(the document has no example or schema of the object)") }
        let made = synthesizer.fittingValue(schema, location: resource.itemPointer)
        guard made.problem == nil, case .object(var members) = made.value else {
            let why = made.problem ?? "it is not an object"
            skipped.append("\(at) (\(resource.itemPointer)): no object stubd can make fits the item schema (\(why)); the seed is empty")
            return ([], "(none could be made from the item schema)")
        }
        if !(members.first { $0.key == resource.id }.map { fits($0.value) } ?? false) {
            members.removeAll { $0.key == resource.id }
            members.insert((resource.id, madeID()), at: 0)
        }
        return ([.object(members)], "made from the item schema")
    }

    /// True when `id` is of the collection's kind: a whole number for integer ids, a string for uuid ones.
    func fits(_ id: JSONValue) -> Bool {
        if resource.ids == "integer" { return id.wholeNumber(in: Int.min...Int.max) != nil }
        if case .string = id { return true }
        return false
    }

    /// An id for a made object: what the id field's schema makes when it is of the right kind,
    /// else 1 or a fixed UUID.
    func madeID() -> JSONValue {
        if let schema = idSchema, let value = synthesizer.make(schema), fits(value) { return value }
        return resource.ids == "integer" ? .number(1) : .string(CollectionBuilder.madeUUID)
    }

    /// The id field's schema in the item schema, if it has one.
    var idSchema: JSONValue? {
        synthesizer.resolvedFlat(resource.itemSchema)?["properties"]?[resource.id]
    }
}
