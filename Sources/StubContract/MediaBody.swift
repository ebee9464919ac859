import StubCore

/// The body file of a response documented with a media type that is not JSON (`text/plain`,
/// `text/html`, `application/octet-stream`, `image/png` …): the document's example when it gives
/// one as a string, else a small body of that type; and the `Content-Type` the variant must
/// declare when the file's extension would give another one.
package struct MediaBody {
    /// The body file's extension (`txt`, `html`, `png`, `bin` …).
    let fileExtension: String
    /// The body.
    let bytes: [UInt8]
    /// The `Content-Type` to set on the variant, or nil when the extension gives the documented type.
    let header: String?

    /// The body for `mediaType`; `text` (the response's description) goes into a generated text body.
    init(mediaType: String, example: String?, text: String) {
        let type = MediaBody.base(mediaType)
        let ext = MediaBody.extensions[type] ?? (type.hasPrefix("text/") ? "txt" : "bin")
        fileExtension = ext
        header = MediaBody.header(for: mediaType, fileExtension: ext)
        if let example {
            bytes = Array(example.utf8)
        } else {
            bytes = MediaBody.generated(type, fileExtension: ext, text: text)
        }
    }

    /// `mediaType` when a body file of `fileExtension` would be served as another type, else nil;
    /// nil for a wildcard (`*/*`, `image/*`), which names no type to send.
    static func header(for mediaType: String, fileExtension: String) -> String? {
        let type = base(mediaType)
        guard !type.isEmpty, !type.contains("*") else { return nil }
        let implied = BodyFile.contentTypes[fileExtension].map(base)
        return implied == type ? nil : mediaType.trimmingWhitespace()
    }

    /// The type without parameters, lower-cased: `Text/HTML; charset=utf-8` → `text/html`.
    package static func base(_ mediaType: String) -> String {
        mediaType.split(separator: ";").first.map { $0.trimmingWhitespace().lowercased() } ?? ""
    }

    static let extensions: [String: String] = [
        "text/plain": "txt", "text/html": "html", "text/csv": "csv", "text/xml": "xml", "application/xml": "xml",
        "application/octet-stream": "bin", "image/png": "png", "image/gif": "gif", "image/jpeg": "jpg", "image/jpg": "jpg",
    ]

    private static func generated(_ type: String, fileExtension: String, text: String) -> [UInt8] {
        let line = text.isEmpty ? "OK" : text
        switch fileExtension {
        case "html":
            let escaped = line.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
            return Array("<!DOCTYPE html>\n<html><head><title>\(escaped)</title></head><body><p>\(escaped)</p></body></html>\n".utf8)
        case "xml": return Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<response/>\n".utf8)
        case "csv", "txt": return Array((line + "\n").utf8)
        case "png": return png
        case "gif": return gif
        case "jpg": return jpeg
        default:
            // An image type stubd has no file for gets a PNG's bytes; other binary types 16 counting bytes.
            return type.hasPrefix("image/") ? png : Array(0..<16)
        }
    }

    /// A 1×1 white PNG (IHDR, one zlib-compressed scanline, IEND; each chunk with its CRC).
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53, 0xDE, 0x00, 0x00, 0x00, 0x0C, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0xF8, 0xFF, 0xFF, 0x3F, 0x00, 0x05, 0xFE, 0x02, 0xFE, 0x0D, 0xEF, 0x46, 0xB8, 0x00, 0x00, 0x00,
        0x00, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]

    /// A 1×1 GIF89a: a two-colour table, a transparent-colour extension, one image of one pixel.
    static let gif: [UInt8] = [
        0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0xFF, 0xFF, 0xFF, 0x21,
        0xF9, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x2C, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02, 0x02, 0x44,
        0x01, 0x00, 0x3B,
    ]

    /// A 1×1 grey baseline JPEG: a flat quantisation table, one-code Huffman tables for DC and
    /// AC, and a scan of one block whose DC difference is 0 followed by end-of-block.
    static let jpeg: [UInt8] = {
        var bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        bytes += [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]
        for table: UInt8 in [0x00, 0x10] {
            bytes += [0xFF, 0xC4, 0x00, 0x14, table, 0x01] + [UInt8](repeating: 0, count: 15) + [0x00]
        }
        bytes += [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        // The bits 0 (DC difference 0) and 0 (end of block), padded with ones.
        bytes += [0x3F, 0xFF, 0xD9]
        return bytes
    }()
}
