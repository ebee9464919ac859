import StubCapture
import StubCore

/// `stubd import-openapi SPEC --stubs DIR`: a service for the document (its `basePath` from the
/// first server URL), a route per operation (folder named by `operationId`, else method and
/// path), a variant per documented status with the body from `example`, the first of
/// `examples`, or a value made from the schema; the lowest 2xx is the default. An error schema
/// shared by the 4xx/5xx responses, with string fields for a title or message, becomes the
/// service's `errorEnvelope`, and those responses `error` variants.
public struct OpenAPIImporter {
    /// The files to write, relative to the stub root.
    public private(set) var files: [CaptureLayout.File] = []
    /// `service/route  METHOD path  variants: …` lines.
    public private(set) var summary: [String] = []
    /// Operations that could not be made into routes, and why.
    public private(set) var skipped: [String] = []
    /// The service folder's name.
    public let service: String

    /// Imports `document` as service `service` (default: from the title); `allKeys` fills optional keys too.
    public init(_ document: OpenAPIDocument, service: String? = nil, allKeys: Bool = false) {
        self.service = service ?? OpenAPIImporter.slug(document.title)
        let synthesizer = SchemaSynthesizer(document: document, allKeys: allKeys)
        let envelope = ErrorEnvelopeGuess(document: document, synthesizer: synthesizer)
        var folders = Set<String>()
        for operation in document.operations {
            if operation.path.split(separator: "/").contains(where: { $0.contains("{") && !($0.hasPrefix("{") && $0.hasSuffix("}")) }) {
                skipped.append("\(operation.name): a parameter that is part of a segment; stub paths take whole segments like {id}")
                continue
            }
            var folder = OpenAPIImporter.slug(operation.operationID ?? "\(operation.method.lowercased())\(operation.path)")
            var n = 2
            while folders.contains(folder.lowercased()) { folder = "\(folder)-\(n)"; n += 1 }
            folders.insert(folder.lowercased())
            addRoute(operation, folder: folder, synthesizer: synthesizer, envelope: envelope)
        }
        var serviceMembers: [(key: String, value: JSONValue)] = []
        if !document.basePath.isEmpty { serviceMembers.append(("basePath", .string(document.basePath))) }
        serviceMembers.append(("description", .string("Imported from \(document.file) (\(document.title))")))
        if let template = envelope.template { serviceMembers.append(("errorEnvelope", template)) }
        files.append(CaptureLayout.File(path: "\(self.service)/_service.json", bytes: OpenAPIImporter.pretty(.object(serviceMembers))))
    }

    private mutating func addRoute(_ operation: OpenAPIDocument.Operation, folder: String, synthesizer: SchemaSynthesizer, envelope: ErrorEnvelopeGuess) {
        var variants: [(key: String, value: JSONValue)] = []
        var names: [String] = []
        for response in operation.responses {
            guard let status = OpenAPIImporter.status(response.status, others: operation.responses.count) else { continue }
            let name = String(status)
            guard !names.contains(name) else { continue }
            names.append(name)
            if status >= 400, envelope.template != nil, envelope.matches(response.schema) {
                variants.append((name, .object([("error", .object([("title", .string(HTTPStatusText.reason(status))),
                                                                    ("message", .string(response.description.isEmpty ? HTTPStatusText.reason(status) : response.description))]))])))
            } else if response.schema != nil || response.example != nil {
                let body = response.example ?? synthesizer.value(response.schema)
                files.append(CaptureLayout.File(path: "\(service)/\(folder)/\(name).json", bytes: OpenAPIImporter.pretty(body)))
                variants.append((name, .object([])))
            } else {
                variants.append((name, .object([])))
            }
        }
        guard !variants.isEmpty else {
            skipped.append("\(operation.name): no responses with a status")
            return
        }
        let success = names.compactMap(Int.init).filter { (200...299).contains($0) }.min()
        var route: [(key: String, value: JSONValue)] = [("method", .string(operation.method)), ("path", .string(operation.path))]
        if let success { route.append(("default", .string(String(success)))) }
        route.append(("variants", .object(variants)))
        files.append(CaptureLayout.File(path: "\(service)/\(folder)/route.json", bytes: OpenAPIImporter.pretty(.object(route))))
        summary.append("\(service)/\(folder)  \(operation.method) \(operation.path)  variants: \(names.joined(separator: ", "))")
    }

    /// `200` → 200, `4XX` → 400, `default` → 500, or 200 when it is the operation's only response.
    static func status(_ key: String, others: Int) -> Int? {
        if let n = Int(key), (100...599).contains(n) { return n }
        if key.count == 3, key.uppercased().hasSuffix("XX"), let first = Int(key.prefix(1)), (1...5).contains(first) { return first * 100 }
        if key == "default" { return others == 1 ? 200 : 500 }
        return nil
    }

    static func slug(_ text: String) -> String {
        var out = String(text.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") ? $0 : "-" })
        while out.contains("--") { out = out.replacing("--", with: "-") }
        out = String(out.drop { $0 == "-" || $0 == "." })
        while out.hasSuffix("-") || out.hasSuffix(".") { out.removeLast() }
        return out.isEmpty ? "api" : String(out.prefix(80))
    }

    static func pretty(_ value: JSONValue) -> [UInt8] { Array((value.serialized(pretty: true) + "\n").utf8) }
}
