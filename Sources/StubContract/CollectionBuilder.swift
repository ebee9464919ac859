import StubCapture
import StubCore
import StubSchema

/// The files of one collection (`import-openapi --collections`): `route.json` with a
/// `collection` key and no `method`, the seed file beside it, and a variant for each error
/// response of the resource's operations that the collection does not answer itself (a 503, a
/// 429), named and made as the importer makes any route's variants.
struct CollectionBuilder {
    /// Statuses the collection answers on its own: 400 (a body that is not an object), 404 (an
    /// unknown id), 409 (an id that exists).
    static let answered: Set<Int> = [400, 404, 409]

    let resource: RestResource
    let service: String
    let folder: String
    let document: OpenAPIDocument
    let synthesizer: SchemaSynthesizer
    let compiler: SchemaCompiler
    let envelope: ErrorEnvelopeGuess
    /// Example objects that break the item schema, and the like, one line each.
    var warnings: [String] = []
    /// Responses left out because no body could be made that fits their schema, one line each.
    var skipped: [String] = []

    init(_ resource: RestResource, service: String, folder: String, document: OpenAPIDocument, synthesizer: SchemaSynthesizer,
         compiler: SchemaCompiler, envelope: ErrorEnvelopeGuess) {
        self.resource = resource
        self.service = service
        self.folder = folder
        self.document = document
        self.synthesizer = synthesizer
        self.compiler = compiler
        self.envelope = envelope
    }

    /// The seed file's name: the list path's last segment (`pets.json`), or `seed.json` where
    /// that could be taken for a body file (`503.json`) or is no name at all.
    var seedName: String {
        let last = PathTemplate(resource.path).segments.last.flatMap { if case .literal(let text) = $0 { text } else { nil } } ?? ""
        let name = OpenAPIImporter.slug(last)
        return name.first?.isLetter == true && name != "route" ? name + ".json" : "seed.json"
    }

    /// The collection's files, its line for the route summary and its line for the report.
    mutating func build() -> (files: [CaptureLayout.File], summary: String, report: String) {
        var variants = RouteFileBuilder(service: service, folder: folder, document: document, synthesizer: synthesizer, compiler: compiler, envelope: envelope)
        for operation in resource.operations {
            for response in operation.responses {
                guard let status = OpenAPIImporter.status(response.status, others: operation.responses.count), status >= 400,
                      !CollectionBuilder.answered.contains(status), !variants.names.contains(String(status)) else { continue }
                _ = variants.addVariant(String(status), status: status, response: response, operation: operation, when: nil)
            }
        }
        skipped += variants.skipped
        warnings += variants.warnings
        let seed = seedObjects()
        let pagination = self.pagination()
        let list = listTemplate(style: pagination?["style"]?.scalarText)
        var collection: [(key: String, value: JSONValue)] = [("seed", .string(seedName)), ("id", .string(resource.id)), ("ids", .string(resource.ids))]
        if let pagination { collection.append(("pagination", pagination)) }
        if let sort = sortParameter() { collection.append(("sort", .string(sort))) }
        if let list { collection.append(("list", list)) }
        var route: [(key: String, value: JSONValue)] = [("path", .string(resource.path)), ("collection", .object(collection))]
        if !variants.variants.isEmpty { route.append(("variants", .object(variants.variants))) }
        let files = variants.files + [
            CaptureLayout.File(path: "\(service)/\(folder)/\(seedName)", bytes: OpenAPIImporter.pretty(.array(seed.objects))),
            CaptureLayout.File(path: "\(service)/\(folder)/route.json", bytes: OpenAPIImporter.pretty(.object(route))),
        ]
        let named = variants.names.isEmpty ? "" : "  variants: \(variants.names.joined(separator: ", "))"
        let summary = "\(service)/\(folder)  collection \(resource.path)  seed: \(seed.objects.count) object(s)\(named)"
        var traits = ["id \"\(resource.id)\" (\(resource.ids))"]
        if let style = pagination?["style"]?.scalarText {
            let names = ["page", "size", "offset", "cursor", "limit"].compactMap { pagination?[$0]?.scalarText }
            traits.append("\(style) pagination (\(names.joined(separator: ", ")))")
        }
        if case .envelope(let property, _) = resource.listShape { traits.append("list in \"\(property)\"" + (list.map(CollectionBuilder.placeholders).map { $0.isEmpty ? "" : " with \($0.joined(separator: ", "))" } ?? "")) }
        traits.append("seed of \(seed.objects.count) object(s) \(seed.origin)")
        if !variants.names.isEmpty { traits.append("variants \(variants.names.joined(separator: ", "))") }
        let report = "\(resource.path): collection \(service)/\(folder) for \(resource.description): \(traits.joined(separator: "; "))"
        return (files, summary, report)
    }

    /// The placeholders a list template holds besides `{{items}}`: `{{total}}`, `{{page}}`…
    static func placeholders(_ value: JSONValue) -> [String] {
        switch value {
        case .string(let text) where text.hasPrefix("{{") && text != "{{items}}": [text]
        case .object(let members): members.flatMap { placeholders($0.value) }
        default: []
        }
    }
}
