/// Why a segment does not match a pattern, in words for a near miss beside a 404.
extension SegmentPattern {
    /// The first reason `segment` (decoded) does not match, e.g. `it does not end with ".json"`;
    /// nil when it matches.
    package func mismatch(_ segment: UnsafeBufferPointer<UInt8>) -> String? {
        guard !matches(segment) else { return nil }
        if case .literal(let first)? = pieces.first, !segment.starts(with: first) {
            return "it does not start with \"\(String(decoding: first, as: UTF8.self))\""
        }
        if case .literal(let last)? = pieces.last, pieces.count > 1, !segment.reversed().starts(with: last.reversed()) {
            return "it does not end with \"\(String(decoding: last, as: UTF8.self))\""
        }
        // Leftmost places for the literals in between, each parameter taking one byte at least:
        // the first literal with no place left, or the parameter left with no byte, is the reason.
        var at = 0
        var previous: String?
        for (index, piece) in pieces.enumerated() {
            switch piece {
            case .parameter(let name):
                guard at < segment.count else { return "{\(name)} would be empty" }
                previous = name
                at += 1
            case .literal(let bytes):
                if index == 0 { at = bytes.count; continue }
                if index == pieces.count - 1 {
                    let start = segment.count - bytes.count
                    if start < at, let previous { return "{\(previous)} would be empty" }
                    continue
                }
                guard let found = SegmentPattern.find(bytes, in: segment, from: at) else {
                    return "it has no \"\(String(decoding: bytes, as: UTF8.self))\" after {\(previous ?? "")}"
                }
                at = found + bytes.count
            }
        }
        return "it does not match the pattern"
    }

    /// The first offset at or after `from` where `segment` holds `bytes`.
    private static func find(_ bytes: [UInt8], in segment: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard !bytes.isEmpty, segment.count >= bytes.count, from <= segment.count - bytes.count else { return nil }
        for start in from...(segment.count - bytes.count) where segment[start..<(start + bytes.count)].elementsEqual(bytes) {
            return start
        }
        return nil
    }
}
