#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubSchema

/// An OpenAPI 3.0 or 3.1 document, or a Swagger 2.0 one read as its OpenAPI 3 equivalent (JSON or
/// YAML, in one file or many), as stubd uses it: its base path, and each operation's parameters,
/// request bodies by media type and responses, with `$ref`s resolvable.
package final class OpenAPIDocument: Sendable {
    /// Which specification the document follows.
    package enum Kind: Sendable {
        /// Swagger 2.0, converted on the way in.
        case swagger2
        /// OpenAPI 3.0.x.
        case openAPI30
        /// OpenAPI 3.1.x.
        case openAPI31
    }

    /// The document's path (as given).
    package let file: String
    /// `openapi` or `swagger`: `3.1.0`, `2.0`.
    package let version: String
    /// Which specification.
    package let kind: Kind
    /// `info.title`.
    package let title: String
    /// The path of the first server's URL (`/v1`), Swagger's `basePath`, or empty.
    package let basePath: String
    /// Every operation, in document order.
    package let operations: [Operation]
    /// What the document has that is not imported (webhooks), one line each.
    package let notes: [String]
    let files: SpecFiles
    /// Operation indices by method and path shape, for lookups by route.
    let byShape: [String: Int]

    /// Reads the document at `path` and every file its refs reach, which must lie inside
    /// `specRoot` (default: the document's folder).
    package init(path: String, specRoot: String? = nil) throws(ContractError) {
        file = path
        files = try SpecFiles(main: path, root: specRoot)
        guard let root = files.document(files.main), case .object = root else {
            throw ContractError(file: path, location: nil, message: "expected an OpenAPI document (an object with \"openapi\" and \"paths\")")
        }
        if let swagger = root["swagger"] {
            guard swagger.scalarText?.hasPrefix("2.") == true else {
                throw ContractError(file: path, location: nil, message: "expected \"swagger\": \"2.0\", found \(SchemaValidator.show(swagger))")
            }
            (version, kind) = (swagger.scalarText ?? "2.0", .swagger2)
        } else {
            guard let version = root["openapi"]?.scalarText, version.hasPrefix("3.0") || version.hasPrefix("3.1") else {
                let found = root["openapi"].map { SchemaValidator.show($0) } ?? "none"
                throw ContractError(file: path, location: nil, message: "expected \"openapi\": \"3.0.x\" or \"3.1.x\" (or \"swagger\": \"2.0\"), found \(found)")
            }
            (self.version, kind) = (version, version.hasPrefix("3.1") ? .openAPI31 : .openAPI30)
        }
        title = root["info"]?["title"]?.scalarText ?? "API"
        basePath = kind == .swagger2 ? OpenAPIDocument.trimmedPath(root["basePath"]?.scalarText ?? "") : OpenAPIDocument.basePath(root["servers"])
        let reader = OperationReader(files: files, kind: kind, root: root)
        operations = reader.operations()
        var notes: [String] = []
        if case .object(let hooks)? = root["webhooks"], !hooks.isEmpty {
            notes.append("\(hooks.count) webhook(s) (\(hooks.map(\.key).prefix(5).joined(separator: ", "))): requests the API sends, not requests to it; not imported")
        }
        notes += OpenAPIDocument.remoteItems(root["paths"], files: files)
        self.notes = notes
        var index: [String: Int] = [:]
        for (i, operation) in operations.enumerated() {
            let key = OpenAPIDocument.shapeKey(operation.method, basePath + operation.path)
            // The operation without a query or fragment in its path key answers for the path.
            let plain = operation.query.isEmpty && operation.fragment == nil
            if let held = index[key] {
                let heldPlain = operations[held].query.isEmpty && operations[held].fragment == nil
                if heldPlain || !plain { continue }
            }
            index[key] = i
        }
        byShape = index
        try OpenAPIDocument.checkRefCycles(files: files, file: path, kind: kind)
    }

    /// The schema (or other value) a ref names.
    package func resolve(_ ref: String) -> JSONValue? { files.resolve(ref) }

    /// The JSON Schema dialect of the document's schemas.
    package var dialect: SchemaDialect { kind == .openAPI31 ? .draft2020 : .draft4 }

    /// A compiler that resolves this document's refs, for its dialect.
    package func compiler() -> SchemaCompiler {
        SchemaCompiler(dialect: dialect, resolve: { [files] in files.resolve($0) })
    }

    /// `value` itself, or what its `$ref` names (a chain of refs followed); nil for a ref that leads nowhere.
    func dereferenced(_ value: JSONValue?) -> JSONValue? { OpenAPIDocument.deref(value, files: files) }

    static func deref(_ value: JSONValue?, files: SpecFiles) -> JSONValue? {
        var current = value
        var seen = Set<String>()
        while case .string(let ref)? = current?["$ref"] {
            guard seen.insert(ref).inserted else { return nil }
            current = files.resolve(ref)
        }
        return current
    }

    /// An example as the document means it: a lone `{"$ref": …}` example (not a reference by the
    /// rules, but often written as one) resolved; nil when it leads nowhere.
    func exampleValue(_ value: JSONValue) -> JSONValue? {
        guard case .object(let members) = value, members.count == 1, members[0].key == "$ref", case .string(let ref) = members[0].value,
              ref.hasPrefix("/") else { return value }
        return files.resolve(ref)
    }

    static func basePath(_ servers: JSONValue?) -> String {
        guard case .array(let list)? = servers, let url = list.first?["url"]?.scalarText else { return "" }
        var rest = Substring(url)
        if let scheme = rest.firstRange(of: "://") { rest = rest[scheme.upperBound...]; rest = rest.drop { $0 != "/" } }
        return trimmedPath(String(rest.prefix { $0 != "?" && $0 != "#" }))
    }

    /// `/v1/` → `/v1`, `v1` → `/v1`, `/` → ``; server variables (`{version}`) kept.
    static func trimmedPath(_ text: String) -> String {
        var path = text
        while path.hasSuffix("/") { path.removeLast() }
        return path.hasPrefix("/") || path.isEmpty ? path : "/" + path
    }

    /// Path items and operations that are themselves remote refs with no copy: nothing says which
    /// operations they hold, so they are named here instead of skipped one by one.
    static func remoteItems(_ paths: JSONValue?, files: SpecFiles) -> [String] {
        guard !files.remote.isEmpty, case .object(let items)? = paths else { return [] }
        var notes: [String] = []
        for (key, item) in items {
            if case .string(let ref)? = item["$ref"], files.remote[ref] != nil {
                notes.append("\(key): not imported: the path item is \(files.describeRemote(ref))")
                continue
            }
            for method in OperationReader.methods {
                if case .string(let ref)? = item[method]?["$ref"], files.remote[ref] != nil {
                    notes.append("\(method.uppercased()) \(key): not imported: the operation is \(files.describeRemote(ref))")
                }
            }
        }
        return notes
    }

    /// A `$ref` that leads only to other `$ref`s and back is an error: nothing could ever match it.
    static func checkRefCycles(files: SpecFiles, file: String, kind: Kind) throws(ContractError) {
        let (pointer, schemas) = kind == .swagger2 ? ("/definitions", files.document(files.main)?["definitions"])
            : ("/components/schemas", files.document(files.main)?["components"]?["schemas"])
        guard case .object(let list)? = schemas else { return }
        // A schema that is (or leads to) a remote ref with no copy is left to what uses it.
        for (name, schema) in list where schema["$ref"] != nil && deref(schema, files: files) == nil && files.remoteRefs(in: [schema]).isEmpty {
            let here = "\(pointer)/\(SpecFiles.escape(name))"
            if case .string(let ref)? = schema["$ref"], files.resolve(ref) == nil, !ref.contains("#\(pointer)/") {
                throw ContractError(file: file, location: files.location(of: here), message: "$ref \(ref) leads nowhere")
            }
            throw ContractError(file: file, location: files.location(of: here),
                                message: "$ref cycle: #\(pointer)/\(name) refers back to itself through $refs alone")
        }
    }
}
