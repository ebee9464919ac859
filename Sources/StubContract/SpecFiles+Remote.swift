#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

extension SpecFiles {
    /// Where a copy of the document at an `http(s)://` (or `//host/…`) ref is looked for:
    /// `root/<host>/<path>`, the layout `wget -x` and `curl --create-dirs` leave; nil for any
    /// other scheme or no host. The path is standardized, so `..` cannot climb above the host's folder.
    static func mirrorPath(of ref: String, root: String) -> String? {
        guard let rest = remoteRest(ref) else { return nil }
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        let host = String(authority.split(separator: "@").last ?? authority).lowercased()
        let path = rest.dropFirst(authority.count).prefix { $0 != "?" }
        guard !host.isEmpty, !host.hasPrefix("."), !path.isEmpty, !path.hasSuffix("/") else { return nil }
        let decoded = String(path).percentDecoded() ?? String(path)
        // `path` starts with `/` (the authority ends there).
        let inside = URL(fileURLWithPath: decoded).standardizedFileURL.path
        return (root == "/" ? "" : root) + "/" + host + inside
    }

    /// What follows `https://`, `http://` or `//` in a ref (its fragment cut), or nil for a ref
    /// that is not remote.
    static func remoteRest(_ ref: String) -> Substring? {
        let target = Substring(split(ref).file)
        if target.hasPrefix("//") { return target.dropFirst(2) }
        let lower = target.prefix(8).lowercased()
        if lower.hasPrefix("https://") { return target.dropFirst(8) }
        if lower.hasPrefix("http://") { return target.dropFirst(7) }
        return nil
    }

    /// The remote refs (without a local copy) that `values` use, directly or through refs to
    /// other places in the document, each once. Examples and other data are not read.
    func remoteRefs(in values: [JSONValue?]) -> [String] {
        guard !remote.isEmpty else { return [] }
        var found: [String] = []
        var seen = Set<String>()
        // Each value with whether it maps names to structures (`properties`), where `default` or
        // `example` is a name, not data.
        var pending = values.compactMap { $0.map { ($0, false) } }
        while let (value, names) = pending.popLast() {
            switch value {
            case .array(let items): pending += items.map { ($0, false) }
            case .object(let members):
                for (key, member) in members {
                    if names {
                        pending.append((member, false))
                    } else if key == "$ref", case .string(let ref) = member {
                        guard seen.insert(ref).inserted else { continue }
                        if remote[ref] != nil { found.append(ref) } else if let target = resolve(ref) { pending.append((target, false)) }
                    } else if !RefWalker.dataKeys.contains(key), key != "examples", !key.hasPrefix("x-") {
                        pending.append((member, RefWalker.nameMaps.contains(key)))
                    }
                }
            default: continue
            }
        }
        return found
    }

    /// `the remote $ref https://example.com/pet.json#/Pet (api.yaml line 14), not fetched; a copy
    /// saved as ROOT/example.com/pet.json is read instead`: a remote ref, where it first stands and
    /// how to give a copy.
    func describeRemote(_ ref: String) -> String {
        guard let (file, pointer) = remote[ref].map({ ($0.file, $0.pointer) }) else { return "the remote $ref \(ref)" }
        let place = location(of: pointer, in: file)
        let shown = URL(fileURLWithPath: file).lastPathComponent + (place.first == "/" ? " at \(place)" : " line \(place)")
        let copy = SpecFiles.mirrorPath(of: ref, root: root).map { "; a copy saved as \($0) would be read instead (--spec-root)" } ?? ""
        return "the remote $ref \(ref) (\(shown)), which is not fetched\(copy)"
    }
}
