#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// Reads a document's operations into the model: path items and operations written as `$ref`s
/// (in this file or another) followed, path-level parameters merged, a query in a path key
/// split off, and Swagger 2.0's forms (`in: body` and `formData` parameters, `consumes`,
/// `produces`, response `schema` and `examples`) read as their OpenAPI 3 equivalents.
struct OperationReader {
    static let methods = ["get", "put", "post", "delete", "patch", "options", "head", "trace"]

    let files: SpecFiles
    let kind: OpenAPIDocument.Kind
    let root: JSONValue

    func operations() -> [OpenAPIDocument.Operation] {
        guard case .object(let paths)? = root["paths"] else { return [] }
        var result: [OpenAPIDocument.Operation] = []
        for (key, rawItem) in paths {
            guard let item = OpenAPIDocument.deref(rawItem, files: files) else { continue }
            var (path, query, fragment) = OperationReader.split(key)
            // A key without its leading `/` (pagoPA's notification API writes
            // `delivery/notifications/received/{iun}`) is read as the path it can only mean.
            if !path.hasPrefix("/") { path = "/" + path }
            let shared = parameters(item["parameters"])
            for method in OperationReader.methods {
                guard let raw = item[method], let op = OpenAPIDocument.deref(raw, files: files), case .object = op else { continue }
                let pointer = "/paths/\(SpecFiles.escape(key))/\(method)"
                let own = parameters(op["parameters"])
                let merged = own + shared.filter { s in !own.contains { $0.name == s.name && $0.location == s.location } }
                let (bodies, required) = kind == .swagger2 ? swaggerBodies(op, parameters: op["parameters"], shared: item["parameters"]) : requestBodies(op["requestBody"])
                result.append(OpenAPIDocument.Operation(
                    method: method.uppercased(), path: path, query: query, fragment: fragment, operationID: op["operationId"]?.scalarText,
                    parameters: merged.filter { $0.location != "body" && $0.location != "formData" }, requestBodies: bodies, bodyRequired: required,
                    responses: responses(op, pointer: pointer + "/responses"), pointer: pointer,
                    remoteRefs: files.remoteRefs(in: [op["parameters"], op["requestBody"], item["parameters"]]).map(files.describeRemote)))
            }
        }
        return result
    }

    /// `/items?beta=true#v2` → (`/items`, [beta=true], `v2`).
    static func split(_ key: String) -> (String, [(name: String, value: String)], String?) {
        guard let hash = key.firstIndex(of: "#") else {
            let (path, query) = splitQuery(key)
            return (path, query, nil)
        }
        let (path, query) = splitQuery(String(key[..<hash]))
        return (path, query, String(key[key.index(after: hash)...]))
    }

    /// `/items?beta=true` → (`/items`, [beta=true]).
    static func splitQuery(_ key: String) -> (String, [(name: String, value: String)]) {
        guard let question = key.firstIndex(of: "?") else { return (key, []) }
        let query = key[key.index(after: question)...].split(separator: "&").map { pair -> (name: String, value: String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).replacing("+", with: " ").percentDecoded() ?? String(s) }
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : "")
        }
        return (String(key[..<question]), query)
    }

    func parameters(_ value: JSONValue?) -> [OpenAPIDocument.Parameter] {
        guard case .array(let list)? = value else { return [] }
        return list.compactMap { raw in
            guard let p = OpenAPIDocument.deref(raw, files: files), let name = p["name"]?.scalarText, let location = p["in"]?.scalarText else { return nil }
            var schema = p["schema"]
            if schema == nil, case .object(let content)? = p["content"] { schema = content.first?.value["schema"] }
            if kind == .swagger2, location != "body" { schema = OperationReader.swaggerSchema(of: p) }
            return OpenAPIDocument.Parameter(name: name, location: location, required: p["required"] == .bool(true) || location == "path", schema: schema)
        }
    }

    func requestBodies(_ value: JSONValue?) -> ([OpenAPIDocument.RequestBody], Bool) {
        guard let body = OpenAPIDocument.deref(value, files: files), case .object(let content)? = body["content"] else { return ([], false) }
        return (content.map { OpenAPIDocument.RequestBody(mediaType: $0.key, schema: $0.value["schema"]) }, body["required"] == .bool(true))
    }

    func responses(_ op: JSONValue, pointer: String) -> [OpenAPIDocument.Response] {
        guard case .object(let list)? = op["responses"] else { return [] }
        return list.compactMap { status, raw in
            let remote = files.remoteRefs(in: [raw]).map(files.describeRemote)
            guard let response = OpenAPIDocument.deref(raw, files: files) else {
                // A response that is itself a remote ref is kept, to be named where it is left out.
                return remote.isEmpty ? nil : OpenAPIDocument.Response(status: status, description: "", mediaType: nil, schema: nil, examples: [], remoteRefs: remote)
            }
            let here = pointer + "/" + SpecFiles.escape(status)
            if kind == .swagger2 {
                var read = swaggerResponse(status, response, op: op, pointer: here)
                read.remoteRefs = remote
                return read
            }
            var schema: JSONValue?, mediaType: String?, examples: [OpenAPIDocument.Example] = []
            if case .object(let content)? = response["content"],
               let json = content.first(where: { OpenAPIDocument.BodyKind(mediaType: $0.key) == .json }) {
                mediaType = json.key
                schema = json.value["schema"]
                let at = here + "/content/" + SpecFiles.escape(json.key)
                if let example = json.value["example"] { examples.append(self.example(example, at: at + "/example")) }
                if case .object(let named)? = json.value["examples"] {
                    for (name, raw) in named {
                        guard let object = OpenAPIDocument.deref(raw, files: files), let value = object["value"] else { continue }
                        examples.append(self.example(value, at: at + "/examples/" + SpecFiles.escape(name)))
                    }
                }
            }
            var read = OpenAPIDocument.Response(status: status, description: response["description"]?.scalarText ?? "", mediaType: mediaType,
                                                schema: schema, examples: examples, remoteRefs: remote)
            if case .object(let content)? = response["content"] {
                read.mediaTypes = content.map(\.key)
                if mediaType == nil, let other = content.first {
                    read.otherMediaType = other.key
                    read.otherExample = OperationReader.textExample(other.value)
                }
            }
            return read
        }
    }

    /// The example of a non-JSON body, when the document gives one as a string (`example`,
    /// else the first of `examples` with a string `value`).
    static func textExample(_ media: JSONValue) -> String? {
        if case .string(let text)? = media["example"] { return text }
        guard case .object(let named)? = media["examples"] else { return nil }
        for (_, raw) in named { if case .string(let text)? = raw["value"] { return text } }
        return nil
    }

    /// An example, a lone `$ref` one resolved (nil value when it leads nowhere).
    func example(_ value: JSONValue, at pointer: String) -> OpenAPIDocument.Example {
        guard case .object(let members) = value, members.count == 1, members[0].key == "$ref", case .string(let ref) = members[0].value,
              ref.hasPrefix("/") else { return OpenAPIDocument.Example(pointer: pointer, value: value) }
        return OpenAPIDocument.Example(pointer: pointer, value: files.resolve(ref))
    }
}
