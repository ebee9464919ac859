/// A body file's bytes and the Content-Type its extension implies.
package struct BodyFile {
    let relative: String
    let bytes: [UInt8]
    let contentType: String
    /// Why the file is not valid JSON, for a `.json` file that is not.
    var jsonError: StubProblem?
    /// An `.events.json` file: the variant streams server-sent events.
    var isEvents = false

    package static let contentTypes: [String: String] = [
        "json": "application/json; charset=utf-8", "txt": "text/plain; charset=utf-8",
        "html": "text/html; charset=utf-8", "xml": "application/xml; charset=utf-8",
        "csv": "text/csv; charset=utf-8", "bin": "application/octet-stream", "ndjson": "application/x-ndjson",
        "png": "image/png", "jpg": "image/jpeg", "gif": "image/gif", "pdf": "application/pdf",
    ]

    // Both read the name's bytes: only ASCII counts, and asking characters for their Unicode
    // properties cost more than reading the file.

    /// The HTTP status a variant name starts with (`404-missing` → 404).
    package static func leadingStatus(_ name: String) -> Int? {
        var status = 0
        var digits = 0
        for byte in name.utf8 {
            guard BodyFile.isDigit(byte) else { break }
            status = status * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            if digits > 3 { return nil }
        }
        guard digits == 3, (100...599).contains(status) else { return nil }
        let rest = name.utf8.dropFirst(3)
        return rest.isEmpty || rest.first == UInt8(ascii: "-") ? status : nil
    }

    package static func isVariantName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            let lower = byte | 0x20
            return isDigit(byte) || (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }
}
