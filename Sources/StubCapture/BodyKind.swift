#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore

/// How a captured body is written: which extension, and whether the captured Content-Type must
/// be kept as a header because the extension would imply another. Binary bodies are `.bin` with
/// their captured Content-Type kept.
enum BodyKind {
    case json
    case text(ext: String)
    case binary

    /// The kind for `media` (lower-case, no parameters) and the body.
    static func of(media: String, body: [UInt8]) -> BodyKind {
        if media.contains("json") || (media.isEmpty && (try? JSONParser.parse(body)) != nil) {
            return (try? JSONParser.parse(body)) != nil ? .json : .text(ext: "txt")
        }
        // JSON sent as text (many APIs answer `text/plain`): a JSON body, so its secrets are found;
        // the captured Content-Type is kept as a header.
        if media.hasPrefix("text/") || media.contains("javascript"), looksLikeJSONDocument(body) { return .json }
        switch media {
        case "text/plain": return .text(ext: "txt")
        case "text/html": return .text(ext: "html")
        case "application/xml", "text/xml": return .text(ext: "xml")
        case "text/csv": return .text(ext: "csv")
        default: break
        }
        if media.hasSuffix("+xml") { return .text(ext: "xml") }
        if media.hasPrefix("text/") || media.contains("form-urlencoded") || media.contains("javascript") { return .text(ext: "txt") }
        if media.isEmpty, String(validating: body, as: UTF8.self) != nil { return .text(ext: "txt") }
        return .binary
    }

    /// An object or array that parses as JSON.
    static func looksLikeJSONDocument(_ body: [UInt8]) -> Bool {
        guard let first = body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return false }
        return (try? JSONParser.parse(body)) != nil
    }

    /// The kind a body file's extension stands for.
    static func forExtension(_ ext: String) -> BodyKind {
        switch ext {
        case "json": return .json
        case "bin": return .binary
        default: return .text(ext: ext)
        }
    }

    var ext: String {
        switch self {
        case .json: return "json"
        case .text(let ext): return ext
        case .binary: return "bin"
        }
    }

    /// The captured Content-Type when the extension's differs in media type or charset; nil when
    /// the extension says the same.
    func keptContentType(_ captured: String?) -> String? {
        guard let captured, !captured.isEmpty else { return nil }
        let implied = BodyFile.contentTypes[ext] ?? "application/octet-stream"
        return BodyKind.sameType(captured, implied) ? nil : captured
    }

    static func sameType(_ a: String, _ b: String) -> Bool {
        func parts(_ s: String) -> (String, String) {
            let pieces = s.lowercased().split(separator: ";").map { $0.trimmingWhitespace() }
            let charset = pieces.dropFirst().first { $0.hasPrefix("charset=") }.map { String($0.dropFirst(8)) } ?? "utf-8"
            return (pieces.first ?? "", charset)
        }
        return parts(a) == parts(b)
    }
}
