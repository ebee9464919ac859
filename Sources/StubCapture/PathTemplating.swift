#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns captured paths into route templates: segments that look like ids (numbers, UUIDs, long
/// hex) and take two or more values among requests of one shape become `{param}` (an id with a
/// file extension, `{param}.json`); every other segment stays literal.
enum PathTemplating {
    /// The segments of a path, percent-decoded as stubd matches them (a segment whose decoded
    /// form would hold a `/` or a NUL stays as sent); empty ones (a trailing slash) dropped.
    static func segments(_ path: String) -> [String] {
        path.split(separator: "/", omittingEmptySubsequences: true).map { raw in
            guard raw.contains("%"), let decoded = String(raw).percentDecoded(), !decoded.contains("/"), !decoded.contains("\0") else { return String(raw) }
            return decoded
        }
    }

    /// A number, a UUID, or 8+ hex digits holding a digit (a Mongo id, a hash).
    static func looksLikeID(_ segment: String) -> Bool {
        let s = segment.percentDecoded() ?? segment
        if !s.isEmpty, s.allSatisfy({ $0.isASCII && $0.isNumber }) { return true }
        if UUID(uuidString: s) != nil { return true }
        return s.count >= 8 && s.allSatisfy { $0.isHexDigit } && s.contains { $0.isNumber }
    }

    /// For an id with a file extension (`AC123.json`, `42.xml`), the extension with its dot; nil
    /// for any other segment. Such segments become a parameter inside the segment (`{id}.json`).
    static func idSuffix(_ segment: String) -> String? {
        guard !looksLikeID(segment), let dot = segment.lastIndex(of: "."), dot != segment.startIndex else { return nil }
        let ext = segment[segment.index(after: dot)...]
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && $0.isLetter }), looksLikeID(String(segment[..<dot])) else { return nil }
        return String(segment[dot...])
    }

    /// The part of a parameter's segment the parameter takes: the segment without its `idSuffix`.
    static func parameterValue(_ segment: String) -> String {
        guard let suffix = idSuffix(segment) else { return segment }
        return String(segment.dropLast(suffix.count))
    }

    /// A segment that holds an encoded `/`: no literal path segment can match it (stubd decodes
    /// request segments), so it is always a parameter, matched by `when`.
    static func holdsSlash(_ segment: String) -> Bool {
        segment.lowercased().contains("%2f")
    }

    /// The shape requests are grouped by: method and segments, id-like ones blanked.
    static func shapeKey(method: String, segments: [String], templates: Bool) -> String {
        guard templates else { return method + " /" + segments.map { holdsSlash($0) ? "{}" : $0 }.joined(separator: "/") }
        return method + " /" + segments.map { looksLikeID($0) || holdsSlash($0) ? "{}" : idSuffix($0).map { "{}" + $0 } ?? $0 }.joined(separator: "/")
    }

    /// For one group of same-shape paths: nil for a literal position, else the parameter's name;
    /// without `templates`, only segments holding an encoded `/` are parameters.
    static func parameters(of group: [[String]], templates: Bool = true) -> [String?] {
        guard let first = group.first else { return [] }
        var varying: [Bool] = []
        for position in first.indices {
            let values = Set(group.map { $0[position] })
            let ids = values.allSatisfy(looksLikeID) || (values.allSatisfy { idSuffix($0) != nil } && Set(values.map(idSuffix)).count == 1)
            varying.append((templates && values.count > 1 && ids) || values.contains(where: holdsSlash))
        }
        let count = varying.filter { $0 }.count
        var names: [String?] = []
        var used = Set<String>()
        for (position, isParameter) in varying.enumerated() {
            guard isParameter else { names.append(nil); continue }
            var name = count == 1 ? "id" : parameterName(after: position > 0 && !varying[position - 1] ? first[position - 1] : nil)
            if used.contains(name) || name.isEmpty { name = "p\(position)" }
            used.insert(name)
            names.append(name)
        }
        return names
    }

    /// `users` → `userId`; a name from the segment before, or empty when there is none to use.
    static func parameterName(after segment: String?) -> String {
        guard let segment, segment.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }), !segment.isEmpty else { return "" }
        let singular = segment.count > 3 && segment.hasSuffix("s") ? String(segment.dropLast()) : segment
        return singular + "Id"
    }

    /// A folder name for a route: `get-users-id`, `post-login`, `get-root`.
    static func folderName(method: String, segments: [String], parameters: [String?]) -> String {
        var parts = [method.lowercased()]
        for (segment, parameter) in zip(segments, parameters) { parts.append(parameter ?? segment) }
        if segments.isEmpty { parts.append("root") }
        let joined = parts.joined(separator: "-")
        var cleaned = String(joined.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_") ? $0 : "-" })
        while cleaned.contains("--") { cleaned = cleaned.replacing("--", with: "-") }
        cleaned = cleaned.trimming { $0 == "-" || $0 == "." }
        return String(cleaned.prefix(80))
    }

    /// A folder name for a host: `api.example.com`, `localhost-8080`.
    static func serviceName(host: String) -> String {
        let cleaned = String(host.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") ? $0 : "-" })
        let trimmed = String(cleaned.trimming { $0 == "-" || $0 == "." }.prefix(100))
        return trimmed.isEmpty ? "captured" : trimmed
    }
}
