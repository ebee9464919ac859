#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

extension SpecFiles {
    /// Rewrites one file's `$ref`s to absolute `file#pointer` form, telling references from data
    /// by where they stand, and collects the other files they name.
    struct RefWalker {
        /// What the value being walked is.
        enum Role {
            /// An OpenAPI object or a schema: keywords, and `$ref` is a reference.
            case structure
            /// A map from names to structures (`properties`, `paths`, `components/schemas` …).
            case names
            /// A map from names to Example objects, whose `value` is data.
            case examples
            /// An Example object.
            case example
            /// Literal data: nothing inside is a reference.
            case data
        }

        /// Keys whose value maps names to structures.
        static let nameMaps: Set<String> = [
            "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "paths", "webhooks", "schemas", "responses",
            "requestBodies", "headers", "securitySchemes", "securityDefinitions", "links", "callbacks", "pathItems", "content", "encoding",
            "variables", "parameters",
        ]
        /// Keys whose value is data wherever they stand in a structure.
        static let dataKeys: Set<String> = ["example", "enum", "const", "default"]

        let file: String
        let swagger: Bool
        /// The folder a copy of a remote document is looked up in, as `root/<host>/<path>`.
        let root: String
        /// Files the refs name, where, and whether the document can do without them (an example
        /// written as a lone `$ref`, which is not a reference by the rules but often meant as one).
        var externals: [(file: String, pointer: String, optional: Bool)] = []
        /// `http(s)://` refs with no local copy, and where each stands: kept as written (so they
        /// resolve to nothing), and only what uses them is left out.
        var remote: [(ref: String, pointer: String)] = []

        init(file: String, swagger: Bool, root: String) {
            self.file = file
            self.swagger = swagger
            self.root = root
        }

        mutating func rewrite(_ value: JSONValue) throws(ContractError) -> JSONValue {
            var pointer: [String] = []
            return try walk(value, role: .structure, pointer: &pointer)
        }

        private mutating func walk(_ value: JSONValue, role: Role, pointer: inout [String]) throws(ContractError) -> JSONValue {
            switch (role, value) {
            case (.data, _):
                return value
            case (_, .array(let items)):
                var out: [JSONValue] = []
                out.reserveCapacity(items.count)
                for (index, item) in items.enumerated() {
                    pointer.append(String(index))
                    out.append(try walk(item, role: role == .names ? .structure : role, pointer: &pointer))
                    pointer.removeLast()
                }
                return .array(out)
            case (_, .object(let members)):
                var out: [(key: String, value: JSONValue)] = []
                out.reserveCapacity(members.count)
                for (key, member) in members {
                    if role != .names && role != .examples, key == "$ref", case .string(let ref) = member {
                        out.append((key, .string(try absolute(ref, pointer: pointer))))
                        continue
                    }
                    pointer.append(key)
                    let inner = RefWalker.role(of: key, member, in: role, swagger: swagger)
                    if inner == .data, key == "example" || (role == .example && key == "value"), let ref = RefWalker.loneRef(member) {
                        out.append((key, .object([("$ref", .string(try absolute(ref, pointer: pointer, optional: true)))])))
                    } else {
                        out.append((key, try walk(member, role: inner, pointer: &pointer)))
                    }
                    pointer.removeLast()
                }
                return .object(out)
            default:
                return value
            }
        }

        /// The role of the value under `key` in a value of role `parent`.
        static func role(of key: String, _ value: JSONValue, in parent: Role, swagger: Bool) -> Role {
            switch parent {
            case .names: return .structure
            case .examples: return .example
            case .example: return key == "value" ? .data : .structure
            case .data: return .data
            case .structure:
                if key.hasPrefix("x-") { return .data }
                if key == "examples" {
                    // A schema's `examples` (3.1) is a list of values; Swagger's response
                    // `examples` maps media types to values; OpenAPI 3's maps names to Example objects.
                    if case .object = value, !swagger { return .examples }
                    return .data
                }
                if dataKeys.contains(key) { return .data }
                if nameMaps.contains(key), case .object = value { return .names }
                return .structure
            }
        }

        /// The ref of an example written as `{"$ref": "examples.yml#/list"}` (not a URL), else nil.
        static func loneRef(_ value: JSONValue) -> String? {
            guard case .object(let members) = value, members.count == 1, members[0].key == "$ref", case .string(let ref) = members[0].value,
                  !hasScheme(ref), !ref.hasPrefix("//") else { return nil }
            return ref
        }

        /// `ref` as `absolute-file#fragment`; an `http(s)://` one as the file of its local copy, or
        /// as written when there is none; `file:`, `urn:` and other schemes refused.
        private mutating func absolute(_ ref: String, pointer: [String], optional: Bool = false) throws(ContractError) -> String {
            // Most refs are local (`#/components/…`): no pointer text, no path work.
            if ref.hasPrefix("#") { return file + ref }
            let here = "/" + pointer.map(SpecFiles.escape).joined(separator: "/")
            if RefWalker.hasScheme(ref) || ref.hasPrefix("//") {
                guard SpecFiles.remoteRest(ref) != nil else {
                    throw ContractError(file: file, location: here,
                                        message: "$ref \(ref) is neither a file nor an http(s) URL; refer to a file by a relative path")
                }
                // Never fetched: a copy saved under the root by host and path stands for it.
                guard let copy = SpecFiles.mirrorPath(of: ref, root: root), SpecFiles.realPath(copy) != nil else {
                    remote.append((ref, here))
                    return ref
                }
                externals.append((copy, here, optional))
                return copy + "#" + SpecFiles.split(ref).fragment
            }
            let (target, fragment) = SpecFiles.split(ref)
            guard !target.isEmpty else { return file + "#" + fragment }
            let path = target.percentDecoded() ?? target
            let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: file).deletingLastPathComponent()).standardizedFileURL.path
            externals.append((absolute, here, optional))
            return absolute + "#" + fragment
        }

        /// `http:`, `HTTPS:`, `file:`, `urn:` …: a scheme before the first `/`, `?` or `#`.
        static func hasScheme(_ ref: String) -> Bool {
            guard let colon = ref.firstIndex(of: ":") else { return false }
            let scheme = ref[..<colon]
            guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
            return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
        }
    }
}
