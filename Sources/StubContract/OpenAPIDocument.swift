import Foundation
import StubCore

/// An OpenAPI 3.0 or 3.1 document (JSON or YAML) as stubd uses it: its base path, and each
/// operation's parameters, request body schema and responses, with `$ref`s resolvable.
public final class OpenAPIDocument: Sendable {
    /// One operation (a method on a path).
    public struct Operation: Sendable {
        /// Upper-case method.
        public let method: String
        /// The path as the document writes it (`/users/{id}`), without the base path.
        public let path: String
        /// `operationId`, if any.
        public let operationID: String?
        /// Parameters (path-level ones merged in), resolved.
        public let parameters: [Parameter]
        /// The JSON (or form) request body schema, and whether a body is required.
        public let requestBody: (schema: JSONValue, required: Bool, form: Bool)?
        /// Responses by status key (`200`, `4XX`, `default`), in document order.
        public let responses: [Response]

        /// `GET /users/{id}`.
        public var name: String { "\(method) \(path)" }
    }

    /// A parameter in the path, the query or a header.
    public struct Parameter: Sendable {
        /// The parameter's name.
        public let name: String
        /// `path`, `query`, `header` or `cookie`.
        public let location: String
        /// True when the request must carry it (path parameters always).
        public let required: Bool
        /// Its schema, if any.
        public let schema: JSONValue?
    }

    /// A documented response.
    public struct Response: Sendable {
        /// `200`, `4XX` or `default`.
        public let status: String
        /// What the document says of it.
        public let description: String
        /// The JSON body's schema, if it has one.
        public let schema: JSONValue?
        /// `example`, or the first of `examples`.
        public let example: JSONValue?
    }

    /// The document's path (as given).
    public let file: String
    /// `openapi`: 3.0.x or 3.1.x.
    public let version: String
    /// `info.title`.
    public let title: String
    /// The path of the first server's URL (`/v1`), or empty.
    public let basePath: String
    /// Every operation, in document order.
    public let operations: [Operation]
    let files: SpecFiles

    /// Reads the document at `path` and every file its refs reach.
    public init(path: String) throws(ContractError) {
        file = path
        files = try SpecFiles(main: path)
        guard let root = files.document(files.main)?.value, case .object = root else {
            throw ContractError(file: path, location: nil, message: "expected an OpenAPI document (an object with \"openapi\" and \"paths\")")
        }
        guard let version = root["openapi"]?.scalarText, version.hasPrefix("3.0") || version.hasPrefix("3.1") else {
            throw ContractError(file: path, location: nil, message: "expected \"openapi\": \"3.0.x\" or \"3.1.x\", found \(root["openapi"].map { SchemaValidator.show($0) } ?? "none")")
        }
        self.version = version
        title = root["info"]?["title"]?.scalarText ?? "API"
        basePath = OpenAPIDocument.basePath(root["servers"])
        operations = try OpenAPIDocument.operations(root, files: files, file: path)
        try OpenAPIDocument.checkRefCycles(files: files, file: path)
    }

    /// The schema (or other value) a ref names; follows chains of refs.
    public func resolve(_ ref: String) -> JSONValue? { files.resolve(ref) }

    /// A validator that resolves this document's refs.
    package var validator: SchemaValidator { SchemaValidator(resolve: { [files] in files.resolve($0) }) }

    /// `value` itself, or what its `$ref` names (a chain of refs followed).
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

    static func basePath(_ servers: JSONValue?) -> String {
        guard case .array(let list)? = servers, let url = list.first?["url"]?.scalarText else { return "" }
        var rest = Substring(url)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...]; rest = rest.drop { $0 != "/" } }
        var path = String(rest.prefix { $0 != "?" && $0 != "#" })
        while path.hasSuffix("/") { path.removeLast() }
        return path.hasPrefix("/") ? path : (path.isEmpty ? "" : "/" + path)
    }

    static let methods = ["get", "put", "post", "delete", "patch", "options", "head", "trace"]

    static func operations(_ root: JSONValue, files: SpecFiles, file: String) throws(ContractError) -> [Operation] {
        guard case .object(let paths)? = root["paths"] else { return [] }
        var result: [Operation] = []
        for (path, rawItem) in paths {
            guard let item = deref(rawItem, files: files) else { continue }
            let shared = parameters(item["parameters"], files: files)
            for method in methods {
                guard let op = item[method] else { continue }
                let own = parameters(op["parameters"], files: files)
                let merged = own + shared.filter { s in !own.contains { $0.name == s.name && $0.location == s.location } }
                result.append(Operation(method: method.uppercased(), path: path, operationID: op["operationId"]?.scalarText, parameters: merged,
                                        requestBody: requestBody(op["requestBody"], files: files), responses: responses(op["responses"], files: files)))
            }
        }
        return result
    }

    static func parameters(_ value: JSONValue?, files: SpecFiles) -> [Parameter] {
        guard case .array(let list)? = value else { return [] }
        return list.compactMap { raw in
            guard let p = deref(raw, files: files), let name = p["name"]?.scalarText, let location = p["in"]?.scalarText else { return nil }
            return Parameter(name: name, location: location, required: p["required"] == .bool(true) || location == "path", schema: p["schema"])
        }
    }

    static func requestBody(_ value: JSONValue?, files: SpecFiles) -> (schema: JSONValue, required: Bool, form: Bool)? {
        guard let body = deref(value, files: files), case .object(let content)? = body["content"] else { return nil }
        let required = body["required"] == .bool(true)
        if let json = content.first(where: { $0.key.contains("json") }), let schema = json.value["schema"] { return (schema, required, false) }
        if let form = content.first(where: { $0.key.contains("x-www-form-urlencoded") }), let schema = form.value["schema"] { return (schema, required, true) }
        return nil
    }

    static func responses(_ value: JSONValue?, files: SpecFiles) -> [Response] {
        guard case .object(let list)? = value else { return [] }
        return list.compactMap { status, raw in
            guard let response = deref(raw, files: files) else { return nil }
            var schema: JSONValue?, example: JSONValue?
            if case .object(let content)? = response["content"], let json = content.first(where: { $0.key.contains("json") })?.value {
                schema = json["schema"]
                example = json["example"]
                if example == nil, case .object(let examples)? = json["examples"], let first = deref(examples.first?.value, files: files) { example = first["value"] }
            }
            return Response(status: status, description: response["description"]?.scalarText ?? "", schema: schema, example: example)
        }
    }

    /// A `$ref` that leads only to other `$ref`s and back is an error: nothing could ever match it.
    static func checkRefCycles(files: SpecFiles, file: String) throws(ContractError) {
        guard let schemas = files.document(files.main)?.value["components"]?["schemas"], case .object(let list) = schemas else { return }
        for (name, schema) in list where schema["$ref"] != nil && deref(schema, files: files) == nil {
            throw ContractError(file: file, location: files.line("/components/schemas/\(SpecFiles.escape(name))").map(String.init) ?? "/components/schemas/\(name)",
                                message: "$ref cycle: #/components/schemas/\(name) refers back to itself through $refs alone")
        }
    }

    /// The documented response for `status`: exact, then `2XX`-style, then `default`.
    public func response(_ operation: Operation, status: Int) -> Response? {
        operation.responses.first { $0.status == String(status) }
            ?? operation.responses.first { $0.status.uppercased() == "\(status / 100)XX" }
            ?? operation.responses.first { $0.status == "default" }
    }

    /// The operation for a route's method and full path; templates compared by position.
    public func operation(method: String, fullPath: String) -> Operation? {
        let want = OpenAPIDocument.shape(fullPath)
        let lookup = method == "HEAD" ? ["HEAD", "GET"] : [method]
        for m in lookup {
            if let op = operations.first(where: { $0.method == m && OpenAPIDocument.shape(basePath + $0.path) == want }) { return op }
        }
        return nil
    }

    /// Segments with every `{param}` blanked: `/users/{}`.
    static func shape(_ path: String) -> [String] {
        path.split(separator: "/").map { $0.hasPrefix("{") && $0.hasSuffix("}") ? "{}" : String($0) }
    }
}
