import StubCapture
import StubCore
import StubSchema

/// The files of one imported route: `route.json` and a body file per variant, from one
/// operation or several that share a method and path (told apart by their path key's query).
struct RouteFileBuilder {
    let service: String
    let folder: String
    let document: OpenAPIDocument
    let synthesizer: SchemaSynthesizer
    let compiler: SchemaCompiler
    let envelope: ErrorEnvelopeGuess
    /// The variants so far, by name, in order.
    private(set) var variants: [(key: String, value: JSONValue)] = []
    /// Their names, in order.
    private(set) var names: [String] = []
    private var defaultName: String?
    /// The body files written so far.
    private(set) var files: [CaptureLayout.File] = []
    /// Examples kept that break their schema, and fragment-keyed operations, one line each.
    private(set) var warnings: [String] = []
    /// Responses left out because no body could be made that fits their schema, one line each.
    private(set) var skipped: [String] = []

    init(service: String, folder: String, document: OpenAPIDocument, synthesizer: SchemaSynthesizer, compiler: SchemaCompiler, envelope: ErrorEnvelopeGuess) {
        self.service = service
        self.folder = folder
        self.document = document
        self.synthesizer = synthesizer
        self.compiler = compiler
        self.envelope = envelope
    }

    /// Adds the variants of `operation`; after the first, variant names carry the query
    /// (`200-beta-true`) and a `when` on it.
    mutating func add(_ operation: OpenAPIDocument.Operation) {
        // The group's first operation gives the default; a query-keyed one alone gives none
        // (a request without the query would get its variant), a fragment-keyed one does.
        let primary = variants.isEmpty && operation.query.isEmpty
        var tag = operation.query.isEmpty ? "" : "-" + OpenAPIImporter.slug(operation.query.map { "\($0.name)-\($0.value)" }.joined(separator: "-")).lowercased()
        if let fragment = operation.fragment {
            tag += "-" + OpenAPIImporter.slug(fragment).lowercased()
        }
        let when: JSONValue? = operation.query.isEmpty ? nil
            : .object([("query", .object(operation.query.map { ($0.name, .string($0.value)) }))])
        var success: [(status: Int, name: String)] = []
        let before = names.count
        for response in operation.responses {
            guard let status = OpenAPIImporter.status(response.status, others: operation.responses.count) else { continue }
            var name = String(status) + tag
            var n = 2
            while names.contains(name) { name = "\(status)\(tag)-\(n)"; n += 1 }
            guard addVariant(name, status: status, response: response, operation: operation, when: when) else { continue }
            if (200...299).contains(status) { success.append((status, name)) }
        }
        if primary, let lowest = success.min(by: { $0.status < $1.status }) { defaultName = lowest.name }
        if operation.fragment != nil, names.count > before {
            warnings.append("\(operation.name) (\(operation.pointer)): a fragment is never sent, so no request can pick this operation; its responses "
                            + "are variants \(names[before...].joined(separator: ", ")) of \(operation.method) \(operation.path), chosen by name (X-Stub-Variant or an override)")
        }
    }

    /// Adds variant `name` for `response` (an `error` variant when it has the service's error
    /// shape, else its body written beside `route.json`); false, with the response in `skipped`,
    /// when no body could be made that fits its schema.
    mutating func addVariant(_ name: String, status: Int, response: OpenAPIDocument.Response, operation: OpenAPIDocument.Operation, when: JSONValue?) -> Bool {
        var variant: [(key: String, value: JSONValue)] = []
        if let when { variant.append(("when", when)) }
        if status >= 400, envelope.template != nil, envelope.matches(response.schema) {
            let message = response.description.isEmpty ? HTTPStatusText.reason(status) : response.description
            variant.append(("error", .object([("title", .string(HTTPStatusText.reason(status))), ("message", .string(message))])))
            // The envelope is sent as the documented type (`application/problem+json`), not as plain JSON.
            if let type = response.mediaType, let header = MediaBody.header(for: type, fileExtension: "json") {
                variant.append(("headers", .object([("Content-Type", .string(header))])))
            }
        } else if response.schema != nil || response.example != nil {
            // A body that would break its own schema is not written: the response is left
            // out and said so, the operation's other responses are written.
            guard let made = body(for: response, operation: operation, file: "\(name).json") else { return false }
            files.append(CaptureLayout.File(path: "\(service)/\(folder)/\(name).json", bytes: OpenAPIImporter.pretty(made)))
            // A `+json` or vendor type (`application/scim+json`) is sent as documented, not as the `.json` file's type.
            if let type = response.mediaType, let header = MediaBody.header(for: type, fileExtension: "json") {
                variant.append(("headers", .object([("Content-Type", .string(header))])))
            }
        } else if let type = response.otherMediaType {
            let made = MediaBody(mediaType: type, example: response.otherExample,
                                 text: response.description.isEmpty ? HTTPStatusText.reason(status) : response.description)
            files.append(CaptureLayout.File(path: "\(service)/\(folder)/\(name).\(made.fileExtension)", bytes: made.bytes))
            if let header = made.header { variant.append(("headers", .object([("Content-Type", .string(header))]))) }
        }
        names.append(name)
        variants.append((name, .object(variant)))
        return true
    }

    /// The document's example (kept even when it breaks the schema, with a warning), else a
    /// value made from the schema; nil, with the response in `skipped`, when none fits it.
    private mutating func body(for response: OpenAPIDocument.Response, operation: OpenAPIDocument.Operation, file: String) -> JSONValue? {
        let at = "\(service)/\(folder)/\(file)"
        for example in response.examples {
            guard let value = example.value else {
                warnings.append("\(at): the example at \(example.pointer) refers to a file or place that cannot be read; a body was made from the schema")
                continue
            }
            if let schema = response.schema, let problem = compiler.compile(schema).validate(value).first {
                warnings.append("\(at): the document's own example at \(example.pointer) does not fit its schema: \(problem); kept as the document has it")
            }
            return value
        }
        let pointer = "\(operation.pointer)/responses/\(response.status)"
        let made = synthesizer.fittingValue(response.schema, location: pointer)
        if let problem = made.problem {
            skipped.append("\(operation.name) → \(response.status) (\(pointer)): no body stubd can make fits its schema (\(problem)); the operation's other responses are written")
            return nil
        }
        return made.value
    }

    /// The route's files, a summary line and warnings; nil when no response could be written.
    func finish(_ primary: OpenAPIDocument.Operation) -> (files: [CaptureLayout.File], summary: String, warnings: [String])? {
        guard !variants.isEmpty else { return nil }
        var route: [(key: String, value: JSONValue)] = [("method", .string(primary.method)), ("path", .string(primary.path))]
        if let defaultName { route.append(("default", .string(defaultName))) }
        route.append(("variants", .object(variants)))
        let all = files + [CaptureLayout.File(path: "\(service)/\(folder)/route.json", bytes: OpenAPIImporter.pretty(.object(route)))]
        return (all, "\(service)/\(folder)  \(primary.method) \(primary.path)  variants: \(names.joined(separator: ", "))", warnings)
    }
}
