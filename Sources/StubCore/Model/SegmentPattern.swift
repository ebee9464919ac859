/// A path segment that mixes literal text and parameters: `{Sid}.json`, `thumbnail.{extension}`,
/// `v{major}.{minor}`, `{owner}@{domain}`.
///
/// A parameter takes one or more bytes of the segment and, like a regular expression's `(.+)`,
/// as many as still lets the rest match: `{name}.{ext}` reads `a.b.json` as `a.b` and `json`.
/// Matching works on the decoded segment, as literal segments do.
package struct SegmentPattern: Sendable, Hashable {
    /// One piece of the segment.
    package enum Piece: Sendable, Hashable {
        /// Bytes the segment must hold here.
        case literal([UInt8])
        /// One or more bytes, captured under this name.
        case parameter(String)
    }

    /// The segment as written.
    package let text: String
    /// The pieces in order.
    package let pieces: [Piece]

    /// Parses a segment holding at least one `{name}` beside literal text; nil when it holds
    /// none, or is one whole `{name}` (a plain parameter), or a brace is left open.
    package init?(_ text: String) {
        var pieces: [Piece] = []
        var literal: [UInt8] = []
        var bytes = Array(text.utf8)[...]
        while let byte = bytes.popFirst() {
            if byte == UInt8(ascii: "}") { return nil }
            guard byte == UInt8(ascii: "{") else { literal.append(byte); continue }
            guard let close = bytes.firstIndex(of: UInt8(ascii: "}")) else { return nil }
            let name = bytes[..<close]
            guard !name.isEmpty, !name.contains(UInt8(ascii: "{")) else { return nil }
            if !literal.isEmpty { pieces.append(.literal(literal)); literal = [] }
            pieces.append(.parameter(String(decoding: name, as: UTF8.self)))
            bytes = bytes[(close + 1)...]
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        guard pieces.count > 1, pieces.contains(where: { if case .parameter = $0 { true } else { false } }) else { return nil }
        self.text = text
        self.pieces = pieces
    }

    /// The parameters' names, in order.
    package var parameterNames: [String] {
        pieces.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The segment with each parameter's name left out (`{}.json`): patterns of one shape match
    /// the same segments.
    package var shape: String {
        pieces.map { piece in
            switch piece {
            case .literal(let bytes): String(decoding: bytes, as: UTF8.self)
            case .parameter: "{}"
            }
        }.joined()
    }

    /// How many literal bytes the pattern holds: among patterns at one place in a path, the one
    /// with more is tried first (`{id}.json` before `{id}.{format}`).
    package var literalBytes: Int {
        pieces.reduce(0) { if case .literal(let bytes) = $1 { $0 + bytes.count } else { $0 } }
    }

    /// Why the pattern cannot be matched faithfully, or nil: two parameters side by side leave
    /// no way to tell where one ends.
    package var problem: String? {
        for (a, b) in zip(pieces, pieces.dropFirst()) {
            if case .parameter(let x) = a, case .parameter(let y) = b {
                return "parameters {\(x)} and {\(y)} side by side in \"\(text)\": put literal text between them"
            }
        }
        return nil
    }

    /// The ranges of `segment` (decoded) that the parameters take, in order; nil when the
    /// segment does not match.
    package func match(_ segment: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        var captures: [Range<Int>]? = []
        captures?.reserveCapacity(pieces.count)
        return match(segment, piece: 0, at: 0, captures: &captures) ? captures : nil
    }

    /// True when `segment` (decoded) matches; a lookup asks this, and allocates nothing.
    package func matches(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        var none: [Range<Int>]? = nil
        return match(segment, piece: 0, at: 0, captures: &none)
    }

    /// The value of parameter `name` in `segment` (decoded), or nil.
    package func value(of name: String, in segment: UnsafeBufferPointer<UInt8>) -> String? {
        guard let index = parameterNames.firstIndex(of: name), let captures = match(segment) else { return nil }
        return String(decoding: segment[captures[index]], as: UTF8.self)
    }

    /// True when the pieces from `piece` on match `segment` from `at` to its end; appends the
    /// parameters' ranges, when asked for, removing them again on a way that fails.
    private func match(_ segment: UnsafeBufferPointer<UInt8>, piece: Int, at: Int, captures: inout [Range<Int>]?) -> Bool {
        guard piece < pieces.count else { return at == segment.count }
        switch pieces[piece] {
        case .literal(let bytes):
            guard SegmentPattern.holds(bytes, segment, at: at) else { return false }
            return match(segment, piece: piece + 1, at: at + bytes.count, captures: &captures)
        case .parameter:
            // The longest first; the last piece takes the rest. Only an end where the next
            // literal lies is worth a try.
            var end = segment.count
            // Before a literal that ends the pattern (`{Sid}.json`), only one end is possible.
            if piece + 2 == pieces.count, case .literal(let last) = pieces[piece + 1] { end = min(end, segment.count - last.count) }
            while end > at {
                if piece + 1 < pieces.count, case .literal(let next) = pieces[piece + 1], !SegmentPattern.holds(next, segment, at: end) {
                    end -= 1
                    continue
                }
                captures?.append(at..<end)
                if match(segment, piece: piece + 1, at: end, captures: &captures) { return true }
                captures?.removeLast()
                end -= 1
            }
            return false
        }
    }

    /// True when `segment` holds `bytes` at `at`.
    private static func holds(_ bytes: [UInt8], _ segment: UnsafeBufferPointer<UInt8>, at: Int) -> Bool {
        guard segment.count - at >= bytes.count else { return false }
        for (offset, byte) in bytes.enumerated() where segment[at + offset] != byte { return false }
        return true
    }
}
