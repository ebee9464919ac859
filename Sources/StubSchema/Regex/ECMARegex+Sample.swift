/// Strings a pattern matches, for bodies made from schemas.
extension ECMARegex {
    /// A short string the pattern matches with at least `minLength` and at most `maxLength`
    /// scalars, or nil when none was found. Candidates are checked with the matcher itself.
    package func sample(minLength: Int = 0, maxLength: Int? = nil) -> String? {
        for extra in [0, 1, 2, 4, 8, 16, 32, 64] + (minLength > 0 ? [minLength, minLength * 2] : []) {
            for branch in 0..<4 {
                var generator = SampleGenerator(extra: extra, branch: branch)
                var out = String.UnicodeScalarView()
                guard generator.emit(node, into: &out) else { continue }
                let text = String(out)
                let length = text.unicodeScalars.count
                if length >= minLength, maxLength.map({ length <= $0 }) ?? true, matches(text) { return text }
                // Unanchored patterns also match inside longer text: pad to the minimum.
                if length < minLength, !anchoredEnd {
                    let padded = text + String(repeating: "a", count: minLength - length)
                    if maxLength.map({ minLength <= $0 }) ?? true, matches(padded) { return padded }
                }
            }
        }
        return nil
    }

    private var anchoredEnd: Bool {
        if case .sequence(let parts) = node, case .end? = parts.last { return true }
        if case .end = node { return true }
        return false
    }
}

/// Walks a pattern's tree writing one string it matches: repetitions at their minimum (plus
/// `extra` for the unbounded ones, to reach a length), the `branch`-th alternative where there
/// is one, and a letter or digit from each class.
struct SampleGenerator {
    let extra: Int
    let branch: Int

    mutating func emit(_ node: RegexNode, into out: inout String.UnicodeScalarView) -> Bool {
        switch node {
        case .empty, .start, .end, .wordBoundary: return true
        case .literal(let s): out.append(s); return true
        case .set(let set):
            guard let s = set.sample() else { return false }
            out.append(s)
            return true
        case .sequence(let parts):
            for part in parts where !emit(part, into: &out) { return false }
            return true
        case .alternation(let branches):
            return emit(branches[min(branch, branches.count - 1)], into: &out)
        case .repetition(let inner, let min, let max):
            var count = min
            if let max { count = Swift.min(max, Swift.max(min, extra > 0 ? min + extra : min)) } else { count = min + extra }
            if count == 0, min == 0 { return true }
            for _ in 0..<Swift.min(count, 10_000) where !emit(inner, into: &out) { return false }
            return true
        }
    }
}
