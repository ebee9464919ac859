/// The fields of a `multipart/form-data` body: each part's name and, for text parts, its value
/// (file parts stand for themselves with an empty value), for checking field names and types.
enum MultipartFields {
    static func parse(_ body: [UInt8], contentType: String) -> [(name: String, value: String)]? {
        guard let boundary = contentType.split(separator: ";").lazy.map({ $0.trimmingPrefix(" ") })
            .first(where: { $0.lowercased().hasPrefix("boundary=") })?.dropFirst("boundary=".count) else { return nil }
        let marker = Array(("--" + boundary.trimmingCharacters("\"")).utf8)
        var fields: [(name: String, value: String)] = []
        for part in split(body, on: marker).dropFirst() {
            if part.starts(with: Array("--".utf8)) { break }
            guard let headerEnd = find(Array("\r\n\r\n".utf8), in: part) else { continue }
            let head = String(decoding: part[..<headerEnd], as: UTF8.self)
            var content = part[(headerEnd + 4)...]
            if content.suffix(2).elementsEqual(Array("\r\n".utf8)) { content = content.dropLast(2) }
            guard let disposition = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-disposition:") }),
                  let name = parameter("name", in: disposition) else { return nil }
            let isFile = parameter("filename", in: disposition) != nil
            fields.append((name, isFile ? "" : String(decoding: content, as: UTF8.self)))
        }
        return fields
    }

    private static func parameter(_ key: String, in header: Substring) -> String? {
        for piece in header.split(separator: ";") {
            let item = piece.trimmingPrefix(" ")
            guard item.lowercased().hasPrefix(key + "=") else { continue }
            return String(item.dropFirst(key.count + 1)).trimmingCharacters("\"")
        }
        return nil
    }

    private static func split(_ bytes: [UInt8], on marker: [UInt8]) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var rest = bytes[...]
        while let at = find(marker, in: rest) {
            parts.append(rest[..<at])
            rest = rest[(at + marker.count)...]
        }
        parts.append(rest)
        return parts
    }

    private static func find(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        while i <= hay.endIndex - needle.count {
            if hay[i] == needle[0], hay[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

extension StringProtocol {
    func trimmingCharacters(_ quote: Character) -> String {
        var s = Substring(self)
        if s.first == quote { s = s.dropFirst() }
        if s.last == quote { s = s.dropLast() }
        return String(s)
    }
}
