/// The one byte range of a body that a `Range` request asks for (RFC 9110 §14.1–14.2), as a
/// `206 Partial Content` sends it.
package struct ByteRange: Sendable, Equatable {
    /// The first and last byte sent, counted from 0; `last` is at most `total - 1`.
    package let first: Int
    package let last: Int
    /// The whole body's size.
    package let total: Int

    /// The range from `first` to `last` of a body of `total` bytes.
    package init(first: Int, last: Int, total: Int) {
        self.first = first
        self.last = last
        self.total = total
    }

    /// What a `Range` header asks of a body.
    package enum Asked: Sendable, Equatable {
        /// Send the whole body with 200: no header, a unit other than bytes, or several ranges
        /// (a multipart answer is not built; RFC 9110 lets a server send the whole instead).
        case whole
        /// Send these bytes with 206.
        case range(ByteRange)
        /// No byte of the body is in the range, or a bytes range that does not parse (`4-2`,
        /// `x-`), as nginx answers: 416 with `Content-Range: bytes */total`.
        case unsatisfiable
    }

    /// `Content-Range: bytes first-last/total`.
    package var contentRange: HTTPHeader { HTTPHeader("Content-Range", "bytes \(first)-\(last)/\(total)") }

    /// The bytes of `body` in the range.
    package func slice(_ body: [UInt8]) -> [UInt8] { Array(body[first...last]) }

    /// What `header` asks of a body of `total` bytes: `bytes=0-99`, `bytes=100-`, `bytes=-100`.
    package static func asked(by header: String?, total: Int) -> Asked {
        guard let header else { return .whole }
        let text = PathText.trimmed(Substring(header))
        guard let equals = text.firstIndex(of: "="), text[..<equals].lowercased() == "bytes" else { return .whole }
        let spec = PathText.trimmed(text[text.index(after: equals)...])
        guard !spec.contains(",") else { return .whole }
        guard let dash = spec.firstIndex(of: "-") else { return .unsatisfiable }
        let start = spec[..<dash], end = spec[spec.index(after: dash)...]
        func number(_ digits: Substring) -> Int? {
            guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(digits)
        }
        if start.isEmpty {
            // The last N bytes.
            guard let suffix = number(end) else { return .unsatisfiable }
            guard suffix > 0, total > 0 else { return .unsatisfiable }
            return .range(ByteRange(first: max(0, total - suffix), last: total - 1, total: total))
        }
        guard let first = number(start) else { return .unsatisfiable }
        let last: Int
        if end.isEmpty {
            last = total - 1
        } else {
            guard let given = number(end), given >= first else { return .unsatisfiable }
            last = min(given, total - 1)
        }
        guard first < total else { return .unsatisfiable }
        return .range(ByteRange(first: first, last: last, total: total))
    }
}
