import StubCapture
import StubCore
import StubSchema

/// `stubd import-openapi SPEC --stubs DIR`: a service for the document (its `basePath` from the
/// first server URL), a route per operation (folder named by `operationId`, else method and
/// path), a variant per documented status with the body from the document's example, or a
/// value made from the schema that fits it; the lowest 2xx is the default. Operations that
/// differ only by a query written into the path key (`/items?beta=true`) share one route, the
/// second one's variants chosen by `when` on that query; one that differs by a fragment
/// (`/schema#classifications`, which no request carries) adds variants chosen by name only. An error schema shared by the
/// 4xx/5xx responses, with string fields for a title or message, becomes the service's
/// `errorEnvelope`, and those responses `error` variants.
package struct OpenAPIImporter {
    /// The files to write, relative to the stub root.
    package private(set) var files: [CaptureLayout.File] = []
    /// `service/route  METHOD path  variants: …` lines, one per route written.
    package private(set) var summary: [String] = []
    /// Operations that could not be made into routes, and why.
    package private(set) var skipped: [String] = []
    /// The document's own examples that break its schemas, bodies that could not be made to
    /// fit, patterns that cannot be checked, and parts of the document not imported.
    package private(set) var warnings: [String] = []
    /// The service folder's name.
    package let service: String

    /// With `collections`: `/pets: collection …` for each resource written as a collection, then
    /// `/pets and /pets/{petId}: …; imported as routes` for each candidate that was not.
    package private(set) var collectionReport: [String] = []
    /// How many collections the files hold.
    package private(set) var collectionCount = 0

    /// Imports `document` as service `service` (default: from the title); `allKeys` fills
    /// optional keys too; `collections` writes each REST resource as one collection.
    package init(_ document: OpenAPIDocument, service: String? = nil, allKeys: Bool = false, collections: Bool = false) {
        self.service = service ?? OpenAPIImporter.slug(document.title)
        let compiler = document.compiler()
        let synthesizer = SchemaSynthesizer(document: document, allKeys: allKeys, compiler: compiler)
        let envelope = ErrorEnvelopeGuess(document: document, synthesizer: synthesizer)
        var folders = Set<String>()
        let groups = OpenAPIImporter.groups(document.operations, skipped: &skipped)
        let finder = collections ? ResourceFinder(groups: groups, document: document, synthesizer: synthesizer) : nil
        // Each group a resource takes the place of, and the resource; it is written where its first group was.
        var owners: [Int: RestResource] = [:]
        for resource in finder?.resources ?? [] { for index in resource.groups { owners[index] = resource } }
        var reports: [String: String] = [:]
        for (index, group) in groups.enumerated() {
            let primary = group[0]
            if let resource = owners[index] {
                guard index == resource.groups.min() else { continue }
                let folder = OpenAPIImporter.unique(OpenAPIImporter.folder(for: resource), in: &folders)
                var builder = CollectionBuilder(resource, service: self.service, folder: folder, document: document, synthesizer: synthesizer,
                                                compiler: compiler, envelope: envelope)
                let written = builder.build()
                files += written.files
                warnings += builder.warnings
                skipped += builder.skipped
                summary.append(written.summary)
                reports[resource.path] = written.report
                collectionCount += 1
                continue
            }
            var folder = OpenAPIImporter.slug(primary.operationID ?? "\(primary.method.lowercased())\(primary.path)")
            var n = 2
            while folders.contains(folder.lowercased()) { folder = "\(folder)-\(n)"; n += 1 }
            var builder = RouteFileBuilder(service: self.service, folder: folder, document: document, synthesizer: synthesizer, compiler: compiler, envelope: envelope)
            for operation in group { builder.add(operation) }
            skipped += builder.skipped
            guard let written = builder.finish(primary) else {
                if builder.skipped.isEmpty { skipped.append("\(primary.name): no responses; nothing to stub") }
                continue
            }
            folders.insert(folder.lowercased())
            files += written.files
            warnings += written.warnings
            summary.append(written.summary)
        }
        if let finder { collectionReport = OpenAPIImporter.report(finder, written: reports) }
        var serviceMembers: [(key: String, value: JSONValue)] = []
        if !document.basePath.isEmpty { serviceMembers.append(("basePath", .string(document.basePath))) }
        serviceMembers.append(("description", .string("Imported from \(document.file) (\(document.title))")))
        if let template = envelope.template { serviceMembers.append(("errorEnvelope", template)) }
        files.append(CaptureLayout.File(path: "\(self.service)/_service.json", bytes: OpenAPIImporter.pretty(.object(serviceMembers))))
        warnings += synthesizer.warnings + compiler.warnings.map { "\(document.file): \($0)" }
        warnings += document.notes.map { "\(document.file): \($0)" }
    }

    /// How many routes the files hold.
    package var routeCount: Int { summary.count }

    /// Operations grouped by method and path (queries in path keys set aside), in document
    /// order; those stubd cannot serve are skipped with the reason.
    static func groups(_ operations: [OpenAPIDocument.Operation], skipped: inout [String]) -> [[OpenAPIDocument.Operation]] {
        var groups: [[OpenAPIDocument.Operation]] = []
        var index: [String: Int] = [:]
        for var operation in operations {
            let remote = operation.responses.filter { !$0.remoteRefs.isEmpty }
            if let used = operation.remoteRefs.first ?? (remote.count == operation.responses.count ? remote.first?.remoteRefs.first : nil) {
                skipped.append("\(operation.name): uses \(used)")
                continue
            }
            for response in remote {
                skipped.append("\(operation.name) → \(response.status) (\(operation.pointer)/responses/\(SpecFiles.escape(response.status))): uses \(response.remoteRefs[0]); the operation's other responses are written")
            }
            operation.responses.removeAll { !$0.remoteRefs.isEmpty }
            if let problem = OpenAPIImporter.templateProblem(operation.path) {
                skipped.append("\(operation.name): \(problem)")
                continue
            }
            let key = operation.method + " " + OpenAPIDocument.shape(operation.path).joined(separator: "/")
            if let i = index[key] {
                // The operation without a query or fragment leads the group; others add variants.
                let plain = { (o: OpenAPIDocument.Operation) in o.query.isEmpty && o.fragment == nil }
                if plain(operation) && !plain(groups[i][0]) { groups[i].insert(operation, at: 0) } else { groups[i].append(operation) }
            } else {
                index[key] = groups.count
                groups.append([operation])
            }
        }
        return groups
    }

    /// `200` → 200, `4XX` → 400, `default` → 500, or 200 when it is the operation's only response.
    static func status(_ key: String, others: Int) -> Int? {
        if let n = Int(key), (100...599).contains(n) { return n }
        if key.count == 3, key.uppercased().hasSuffix("XX"), let first = Int(key.prefix(1)), (1...5).contains(first) { return first * 100 }
        if key == "default" { return others == 1 ? 200 : 500 }
        return nil
    }

    /// Why `path` cannot be a stub route's template (the loader would refuse the route), or nil.
    static func templateProblem(_ path: String) -> String? {
        let template = PathTemplate(path)
        for segment in template.segments {
            switch segment {
            case .literal(let text) where text.contains("{") || text.contains("}"):
                return "the path segment \"\(text)\" has braces that name no parameter"
            case .pattern(let pattern):
                if let problem = pattern.problem { return problem }
            default: continue
            }
        }
        if let name = template.parameterNames.first(where: { $0.contains { !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "-" } }) {
            return "parameter {\(name)}: stub parameter names take letters, digits, '_' and '-'"
        }
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
