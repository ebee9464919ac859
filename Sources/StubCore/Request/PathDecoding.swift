/// Percent-decoding of a request path, one segment at a time. The path is split at its raw
/// slashes first, so `%2F` is a character of a segment, not a separator, and a `%00` cannot cut
/// the path short: a segment that decodes to a NUL, holds a broken escape or is not UTF-8 makes
/// the request a 400 (`problem(in:)`), checked before any route is looked up.
package enum PathDecoding {
    /// Why a segment cannot be decoded.
    package enum Failure: Error, Equatable {
        /// `%` not followed by two hex digits.
        case badEscape
        /// An escape that decodes to a NUL byte.
        case nul
        /// The decoded bytes are not UTF-8.
        case notUTF8
    }

    /// True when the bytes hold an escape at all; most paths hold none and are used as they are.
    @inlinable
    package static func needsDecoding(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.contains(UInt8(ascii: "%"))
    }

    /// Bytes a client must percent-encode in a path: spaces, control characters and DEL.
    static func mustBeEncoded(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == 0x7F
    }

    /// The decoded bytes of one segment (no `+` rule: that is for query strings only).
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<[UInt8], Failure> {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                i += 1
                continue
            }
            guard i + 2 < bytes.count, let high = FormDecoding.hex(bytes[i + 1]), let low = FormDecoding.hex(bytes[i + 2]) else { return .failure(.badEscape) }
            let decoded = high << 4 | low
            if decoded == 0 { return .failure(.nul) }
            out.append(decoded)
            i += 3
        }
        guard String(validating: out, as: UTF8.self) != nil else { return .failure(.notUTF8) }
        return .success(out)
    }

    /// One segment as text, decoded; the raw text when it cannot be decoded.
    package static func segment(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        guard needsDecoding(bytes), case .success(let decoded) = decode(bytes) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// What is wrong with the path, for a 400: the first segment that cannot be decoded and why.
    package static func problem(in path: String) -> (segment: String, expected: String)? {
        var path = path
        return path.withUTF8 { bytes -> (segment: String, expected: String)? in
            var escapes = false
            for byte in bytes {
                if byte == UInt8(ascii: "%") { escapes = true }
                if mustBeEncoded(byte) { return (firstSegment(in: bytes, where: mustBeEncoded), "no space or control character (percent-encode it)") }
            }
            guard escapes else { return nil }
            var from = 0
            while let range = RouteMatcher.segment(in: bytes, from: from) {
                from = range.upperBound
                let segment = UnsafeBufferPointer(rebasing: bytes[range])
                guard needsDecoding(segment), case .failure(let failure) = decode(segment) else { continue }
                let text = String(decoding: segment, as: UTF8.self)
                switch failure {
                case .badEscape: return (text, "'%' followed by two hex digits")
                case .nul: return (text, "no %00 (NUL) in a path segment")
                case .notUTF8: return (text, "escapes that decode to UTF-8")
                }
            }
            return nil
        }
    }

    /// The text of the first segment holding a byte that `test` picks.
    private static func firstSegment(in bytes: UnsafeBufferPointer<UInt8>, where test: (UInt8) -> Bool) -> String {
        var from = 0
        while let range = RouteMatcher.segment(in: bytes, from: from) {
            if bytes[range].contains(where: test) { return String(decoding: bytes[range], as: UTF8.self) }
            from = range.upperBound
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The whole path decoded, slashes included, for the admin API whose ids contain slashes.
    package static func decodedWhole(_ path: String) -> String {
        var path = path
        return path.withUTF8 { bytes in
            guard needsDecoding(bytes), case .success(let decoded) = decode(bytes) else { return String(decoding: bytes, as: UTF8.self) }
            return String(decoding: decoded, as: UTF8.self)
        }
    }
}
