import Foundation
import StubCore

/// The files of one OpenAPI document: the document and each file its `$ref`s reach, read once
/// (JSON or YAML), with every `$ref` rewritten to an absolute `file#pointer`, so a schema taken
/// from one file keeps resolving in the file it came from. Remote refs are refused.
final class SpecFiles: @unchecked Sendable {
    // @unchecked: filled while the document loads, on one thread, and only read afterwards.
    struct Loaded {
        let value: JSONValue
        let lines: [String: Int]
    }
    private(set) var files: [String: Loaded] = [:]
    let main: String

    init(main path: String) throws(ContractError) {
        main = URL(fileURLWithPath: path).standardizedFileURL.path
        _ = try load(main, from: nil)
    }

    func document(_ file: String) -> Loaded? { files[file] }

    /// Reads `file` (and, through its refs, every file it names).
    @discardableResult
    func load(_ file: String, from: String?) throws(ContractError) -> Loaded {
        if let known = files[file] { return known }
        guard let data = FileManager.default.contents(atPath: file) else {
            throw ContractError(file: from ?? file, location: nil, message: from == nil ? "cannot be read" : "refers to \(file), which cannot be read")
        }
        let bytes = Array(data)
        var loaded: Loaded
        let trimmed = bytes.drop { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        if trimmed.first == UInt8(ascii: "{") {
            do { loaded = Loaded(value: try JSONParser.parse(bytes), lines: [:]) } catch {
                throw ContractError(file: file, location: "\(error.line):\(error.column)", message: "not valid JSON: \(error.message)")
            }
        } else {
            do {
                let document = try YAMLReader.read(bytes)
                loaded = Loaded(value: document.value, lines: document.lines)
            } catch {
                throw ContractError(file: file, location: "\(error.line)", message: "not valid YAML: \(error.message)")
            }
        }
        var externals: [String] = []
        let rewritten = try rewrite(loaded.value, in: file, pointer: "", externals: &externals, lines: loaded.lines)
        loaded = Loaded(value: rewritten, lines: loaded.lines)
        files[file] = loaded
        for external in externals where files[external] == nil { try load(external, from: file) }
        return loaded
    }

    /// `$ref`s made absolute; remote ones refused.
    private func rewrite(_ value: JSONValue, in file: String, pointer: String, externals: inout [String], lines: [String: Int]) throws(ContractError) -> JSONValue {
        switch value {
        case .object(let members):
            var out: [(key: String, value: JSONValue)] = []
            for (key, member) in members {
                let here = pointer + "/" + SpecFiles.escape(key)
                if key == "$ref", case .string(let ref) = member {
                    if ref.hasPrefix("http://") || ref.hasPrefix("https://") || ref.hasPrefix("//") {
                        throw ContractError(file: file, location: lines[pointer].map(String.init) ?? pointer, message: "remote $ref \(ref) is not followed; save it next to the document and refer to the file")
                    }
                    let (target, fragment) = SpecFiles.split(ref)
                    let absolute = target.isEmpty ? file : URL(fileURLWithPath: target, relativeTo: URL(fileURLWithPath: file).deletingLastPathComponent()).standardizedFileURL.path
                    if !target.isEmpty { externals.append(absolute) }
                    out.append((key, .string(absolute + "#" + fragment)))
                } else {
                    out.append((key, try rewrite(member, in: file, pointer: here, externals: &externals, lines: lines)))
                }
            }
            return .object(out)
        case .array(let items):
            var out: [JSONValue] = []
            for (index, item) in items.enumerated() { out.append(try rewrite(item, in: file, pointer: pointer + "/\(index)", externals: &externals, lines: lines)) }
            return .array(out)
        default:
            return value
        }
    }

    /// The value an absolute `file#pointer` ref names.
    func resolve(_ ref: String) -> JSONValue? {
        let (file, fragment) = SpecFiles.split(ref)
        guard let root = files[file.isEmpty ? main : file]?.value else { return nil }
        return SpecFiles.follow(fragment, in: root)
    }

    static func follow(_ pointer: String, in root: JSONValue) -> JSONValue? {
        var node = root
        for raw in pointer.split(separator: "/", omittingEmptySubsequences: true) {
            let token = String(raw).removingPercentEncoding?.replacing("~1", with: "/").replacing("~0", with: "~") ?? String(raw)
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

    /// The line of `pointer` in the main document, for messages.
    func line(_ pointer: String) -> Int? { files[main]?.lines[pointer] }
}
