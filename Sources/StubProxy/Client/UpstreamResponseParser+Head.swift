extension UpstreamResponseParser {
    /// One line of the head: the status line first, then header lines, then the empty line
    /// that picks how the body is framed.
    mutating func takeHeadLine(_ line: [UInt8]) throws(Failure) {
        headBytes += line.count + 2
        guard headBytes <= UpstreamResponseParser.maxHeadBytes else { throw .malformed("the answer's head is over 64 KiB") }
        if status == 0 {
            try takeStatusLine(line)
        } else if line.isEmpty {
            try endHead()
        } else if line.first == UInt8(ascii: " ") || line.first == UInt8(ascii: "\t") {
            // An obsolete folded line continues the header before it.
            guard !headers.isEmpty else { throw .malformed("the answer's first header line starts with a space") }
            headers[headers.count - 1].value += " " + String(decoding: line, as: UTF8.self).trimmingWhitespace()
        } else {
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > 0 else {
                throw .malformed("a header line of the answer has no colon: \(String(decoding: line.prefix(80), as: UTF8.self))")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            guard !name.contains(where: { $0 == " " || $0 == "\t" }) else { throw .malformed("a header name of the answer holds a space: \(name)") }
            headers.append((name, String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingWhitespace()))
        }
    }

    private mutating func takeStatusLine(_ line: [UInt8]) throws(Failure) {
        let text = String(decoding: line, as: UTF8.self)
        let parts = text.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0", parts[1].count == 3,
              let code = Int(parts[1]), (100...999).contains(code) else {
            throw .malformed("the answer does not start with an HTTP/1.x status line: \(text.prefix(80))")
        }
        status = code
        if parts[0] == "HTTP/1.0" { keepAlive = false }
    }

    /// The head is complete: a 1xx waits for the real answer; otherwise the body's framing is
    /// picked as RFC 9112 §6.3 orders it.
    private mutating func endHead() throws(Failure) {
        if (100..<200).contains(status) {
            guard status != 101 else { throw .malformed("the upstream switched protocols (101), which the proxy does not forward") }
            status = 0
            headers = []
            return
        }
        let connection = values(of: "connection").flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() } }
        if connection.contains("close") { keepAlive = false }
        if requestWasHead || status == 204 || status == 304 {
            stage = .done
            return
        }
        let codings = values(of: "transfer-encoding").flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace().lowercased() } }
        if !codings.isEmpty {
            if !values(of: "content-length").isEmpty { keepAlive = false }
            if codings.last == "chunked" {
                stage = .chunkSize
            } else {
                keepAlive = false
                stage = .untilClose
            }
            return
        }
        let lengths = Set(values(of: "content-length").flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace() } })
        guard !lengths.isEmpty else {
            keepAlive = false
            stage = .untilClose
            return
        }
        guard lengths.count == 1, let text = lengths.first, !text.isEmpty, text.count <= 18, text.allSatisfy(\.isASCIIDigitCharacter),
              let length = Int(text) else {
            throw .malformed("the answer's Content-Length is not one number: \(lengths.sorted().joined(separator: ", "))")
        }
        guard length <= maxBodyBytes else { throw .tooLarge }
        stage = length == 0 ? .done : .fixed(remaining: length)
    }

    private func values(of name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name }.map(\.value)
    }
}

private extension Character {
    var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
