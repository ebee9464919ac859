#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files of one OpenAPI (or Swagger 2.0) document: the document and each file its `$ref`s
/// reach, read once (JSON or YAML), with every `$ref` rewritten to an absolute `file#pointer`, so a
/// schema taken from one file keeps resolving in the file it came from.
///
/// A `$ref` is only a reference where OpenAPI and JSON Schema say one can be: never inside
/// example values, `enum`, `const`, `default` or `x-` extensions, which are data (a SCIM payload
/// has `"$ref"` keys of its own). Refs reach only regular files inside `root` (the document's
/// folder unless widened), and every file is bounded in size. Nothing is fetched: an `http(s)://`
/// ref reads the copy saved as `root/<host>/<path>` when there is one, and is otherwise kept
/// unresolved (listed in `remote`) so that only what uses it is left out; `file:` URLs are refused.
final class SpecFiles: @unchecked Sendable {
    // @unchecked: filled while the document loads, on one thread, and only read afterwards.

    /// How much a document may ask for.
    struct Limits {
        /// Bytes in one file.
        var fileBytes = 64 << 20
        /// Files in one document.
        var files = 20_000
        /// What YAML may ask for.
        var yaml = YAMLReader.Limits()
    }

    private(set) var files: [String: JSONValue] = [:]
    /// Files only examples named, which could not be read.
    private(set) var missing: Set<String> = []
    /// Remote refs without a local copy, each with the first place it stands (file, pointer).
    private(set) var remote: [String: (file: String, pointer: String)] = [:]
    /// The main document's absolute path.
    let main: String
    /// The folder file refs must stay inside (real path, no trailing slash).
    let root: String
    /// True for a Swagger 2.0 document, whose response `examples` are keyed by media type.
    private(set) var swagger = false
    private let limits: Limits

    /// Reads `path` and every file its refs reach; `root` widens the folder they may reach.
    init(main path: String, root: String? = nil, limits: Limits = Limits()) throws(ContractError) {
        main = URL(fileURLWithPath: path).standardizedFileURL.path
        self.limits = limits
        let folder = root ?? URL(fileURLWithPath: main).deletingLastPathComponent().path
        self.root = SpecFiles.realPath(folder) ?? folder
        let value = try read(main, from: nil)
        swagger = value["swagger"] != nil && value["openapi"] == nil
        try load(main, value: value)
    }

    /// The (rewritten) value of a file read.
    func document(_ file: String) -> JSONValue? { files[file] }

    /// Reads `file` and, through its refs, every file it names, without recursion.
    private func load(_ file: String, value: JSONValue) throws(ContractError) {
        var pending = [(file, value)]
        while let (next, raw) = pending.popLast() {
            var walker = RefWalker(file: next, swagger: swagger, root: root)
            files[next] = try walker.rewrite(raw)
            for (ref, pointer) in walker.remote where remote[ref] == nil { remote[ref] = (next, pointer) }
            for external in walker.externals where files[external.file] == nil && !pending.contains(where: { $0.0 == external.file }) {
                guard !missing.contains(external.file) else { continue }
                guard files.count + pending.count < limits.files else {
                    throw ContractError(file: next, location: nil, message: "refers to more than \(limits.files) files")
                }
                do {
                    try confine(external.file, from: next, pointer: external.pointer)
                    pending.append((external.file, try read(external.file, from: next)))
                } catch where external.optional {
                    // An example's lone $ref that leads nowhere: the example is reported, not the document.
                    missing.insert(external.file)
                }
            }
        }
    }

    private func read(_ file: String, from: String?) throws(ContractError) -> JSONValue {
        let bytes: [UInt8]
        switch StubFiles.read(file, limit: limits.fileBytes) {
        case .success(let read): bytes = read
        case .failure(let error):
            throw ContractError(file: from ?? file, location: nil, message: from == nil ? "\(error)" : "refers to \(file), which \(error)")
        }
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.first == UInt8(ascii: "{") || trimmed.first == UInt8(ascii: "[") {
            do { return try JSONParser.parse(bytes) } catch {
                throw ContractError(file: file, location: "\(error.line):\(error.column)", message: "not valid JSON: \(error.message)")
            }
        }
        do { return try YAMLReader.read(bytes, limits: limits.yaml) } catch {
            throw ContractError(file: file, location: "\(error.line)", message: error.overLimit ? error.message : "not valid YAML: \(error.message)")
        }
    }

    /// Refuses a file outside `root` (after links are followed).
    private func confine(_ file: String, from: String, pointer: String) throws(ContractError) {
        let real = SpecFiles.realPath(file) ?? file
        guard real == root || real.hasPrefix(root == "/" ? "/" : root + "/") else {
            throw ContractError(file: from, location: location(of: pointer, in: from),
                                message: "$ref to \(file) leaves the document's folder \(root); refs are confined to it (pass --spec-root to widen)")
        }
    }

    /// The value an absolute `file#pointer` ref names.
    func resolve(_ ref: String) -> JSONValue? {
        let (file, fragment) = SpecFiles.split(ref)
        guard let root = files[file.isEmpty ? main : file] else { return nil }
        return SpecFiles.follow(fragment, in: root)
    }

    static func follow(_ pointer: String, in root: JSONValue) -> JSONValue? {
        var node = root
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let token = (String(raw).percentDecoded() ?? String(raw)).replacing("~1", with: "/").replacing("~0", with: "~")
            switch node {
            case .object: guard let next = node[token] else { return nil }; node = next
            case .array(let items): guard let i = Int(token), items.indices.contains(i) else { return nil }; node = items[i]
            default: return nil
            }
        }
        return node
    }

    static func split(_ ref: String) -> (file: String, fragment: String) {
        guard let hash = ref.firstIndex(of: "#") else { return (ref, "") }
        return (String(ref[..<hash]), String(ref[ref.index(after: hash)...]))
    }

    static func escape(_ key: String) -> String { key.replacing("~", with: "~0").replacing("/", with: "~1") }

    /// `line 12` of a YAML file, or the pointer itself, for messages.
    func location(of pointer: String, in file: String? = nil) -> String {
        let file = file ?? main
        if case .success(let bytes) = StubFiles.read(file, limit: limits.fileBytes),
           bytes.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) != UInt8(ascii: "{"),
           let line = YAMLReader.line(of: pointer, in: bytes) {
            return "\(line)"
        }
        return pointer.isEmpty ? "/" : pointer
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
