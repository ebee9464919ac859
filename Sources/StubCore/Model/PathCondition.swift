/// A variant's `when.path`, resolved against its route's template when the route is made: the
/// segment each named parameter stands at and the value wanted there. Choosing a variant then
/// reads the request's path where it lies, in one walk for all its parameters; a segment is
/// decoded into a string only when it holds an escape or either side is not ASCII (there the
/// comparison stays `String`'s, so it answers as reading the parameter would).
struct PathCondition: Sendable {
    /// One parameter's test.
    struct Check: Sendable {
        /// Which of the path's segments holds the parameter.
        let position: Int
        /// The value wanted; nil for `"*"` (the segment only has to be there).
        let want: String?
        /// `want`'s UTF-8 bytes, for comparing in place.
        let wantBytes: [UInt8]
        let wantIsASCII: Bool
        /// For a parameter inside a mixed segment (`{Sid}.json`): the segment's pattern and the
        /// parameter's place among its parameters.
        var pattern: (SegmentPattern, Int)? = nil

        /// True when the segment's `bytes` (as sent) carry the value wanted.
        func accepts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            if let (pattern, index) = pattern { return acceptsPart(of: pattern, index, bytes) }
            guard let want else { return true }
            if !PathDecoding.needsDecoding(bytes) {
                if PathCondition.equal(bytes, wantBytes) { return true }
                if wantIsASCII && !bytes.contains(where: { $0 >= 0x80 }) { return false }
            }
            return PathDecoding.segment(bytes) == want
        }
    }

    /// The tests, by position along the path (a mixed segment may have several).
    let checks: [Check]
    /// False when a name is not a parameter of the template: then the condition never holds.
    let possible: Bool

    /// The resolved form of `path` (`when.path`) for a route with `template`; nil when it is empty.
    init?(_ path: [String: String], template: PathTemplate) {
        guard !path.isEmpty else { return nil }
        var checks: [Check] = []
        var possible = true
        for (name, want) in path {
            guard let position = template.position(of: name) else {
                possible = false
                continue
            }
            let bytes = Array(want.utf8)
            var check = Check(position: position, want: want == "*" ? nil : want, wantBytes: bytes, wantIsASCII: bytes.allSatisfy { $0 < 0x80 })
            if case .pattern(let pattern) = template.segments[position], let index = pattern.parameterNames.firstIndex(of: name) {
                check.pattern = (pattern, index)
            }
            checks.append(check)
        }
        self.checks = checks.sorted { $0.position < $1.position }
        self.possible = possible
    }

    /// True when every parameter of the request's `path` (as sent, no query) holds its value:
    /// one walk along its segments (cut by `RouteMatcher.segment`, as a lookup cuts them), up to
    /// the last one tested.
    func holds(in path: UnsafeBufferPointer<UInt8>) -> Bool {
        guard possible else { return false }
        return checks.withUnsafeBufferPointer { checks in
            var next = 0, from = 0, position = 0
            while next < checks.count {
                guard let segment = RouteMatcher.segment(in: path, from: from) else { return false }
                from = segment.upperBound
                while next < checks.count && position == checks[next].position {
                    guard checks[next].accepts(UnsafeBufferPointer(rebasing: path[segment])) else { return false }
                    next += 1
                }
                position += 1
            }
            return true
        }
    }

    /// Byte equality, a plain loop.
    private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return b.withUnsafeBufferPointer { b in
            for i in 0..<a.count where a[i] != b[i] { return false }
            return true
        }
    }
}

extension PathCondition.Check {
    /// True when the parameter at `index` of `pattern`, read from the segment's `bytes` (as
    /// sent, decoded first), carries the value wanted; a segment the pattern does not match
    /// carries none.
    func acceptsPart(of pattern: SegmentPattern, _ index: Int, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var decoded = PathDecoding.segment(bytes)
        return decoded.withUTF8 { segment in
            guard let captures = pattern.match(segment) else { return false }
            guard let want else { return true }
            return String(decoding: segment[captures[index]], as: UTF8.self) == want
        }
    }
}
