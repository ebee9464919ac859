/// Edit distance, for "did you mean" hints and 404 near misses.
enum StringDistance {
    /// Levenshtein distance between two strings, by Unicode scalar.
    static func levenshtein(_ a: String, _ b: String) -> Int {
        levenshtein(Array(a.unicodeScalars), Array(b.unicodeScalars))
    }

    /// Levenshtein distance between two sequences; O(a × b), so callers bound the lengths.
    static func levenshtein<Element: Equatable>(_ a: [Element], _ b: [Element]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            let x = a[i - 1]
            for j in 1...b.count {
                current[j] = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    /// The candidate within a third of the word's length in edits, if any.
    static func closest(to word: String, in candidates: [String]) -> String? {
        let limit = Swift.max(1, word.count / 3)
        return candidates.map { ($0, levenshtein(word.lowercased(), $0.lowercased())) }
            .filter { $0.1 <= limit }
            .min { $0.1 < $1.1 }?.0
    }
}
