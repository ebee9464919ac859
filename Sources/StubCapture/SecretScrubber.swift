/// Finds which of many captured secret values a text holds without searching the text once per
/// value: a capture whose every request carries its own token (a rotating bearer token, a
/// request signature) would otherwise cost texts × values searches.
///
/// Values are indexed by their first 6 UTF-8 bytes (every kept value has at least 6), so one
/// pass over a text's bytes names the values whose bytes occur in it. A value found by
/// characters (as `RedactionReport.scrub` replaces them) is also found by bytes, with two
/// exceptions, which are always searched for: a value with non-ASCII characters (`é` matches
/// `e` + U+0301), and a text holding one of the three characters that are canonically an ASCII
/// character (U+212A KELVIN SIGN is `K`, U+037E `;`, U+1FEF `` ` ``).
struct SecretScrubber: Sendable {
    /// The values longest first (a token is not half-replaced by a shorter secret inside it),
    /// equal lengths in string order.
    let values: [String]
    private let bytes: [[UInt8]]
    /// Value indices by their first 6 bytes.
    private let index: [UInt64: [Int]]
    /// A bit per value's first two bytes, to pass over most places without a dictionary lookup.
    private let firstPairs: [UInt64]
    /// Values searched for in every text.
    private let always: [Int]

    init(_ set: Set<String>) {
        values = set.map { ($0, $0.count) }.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.0 < $1.0 }.map(\.0)
        bytes = values.map { Array($0.utf8) }
        var index: [UInt64: [Int]] = [:]
        var firstPairs = [UInt64](repeating: 0, count: 1024)
        var always: [Int] = []
        for (i, value) in bytes.enumerated() {
            guard value.count >= 6, value.allSatisfy({ $0 < 0x80 }) else { always.append(i); continue }
            index[SecretScrubber.key(value, at: 0), default: []].append(i)
            let pair = Int(value[0]) << 8 | Int(value[1])
            firstPairs[pair >> 6] |= 1 << UInt64(pair & 63)
        }
        self.index = index
        self.firstPairs = firstPairs
        self.always = always
    }

    /// The indices (into `values`, ascending) of the values that may occur in `text`: every one
    /// that does, perhaps some that do not.
    func candidates(in text: String) -> [Int] {
        let text = Array(text.utf8)
        if SecretScrubber.holdsASCIIEquivalent(text) { return Array(values.indices) }
        var found = Set(always)
        if text.count >= 6 {
            for at in 0...(text.count - 6) {
                let pair = Int(text[at]) << 8 | Int(text[at + 1])
                guard firstPairs[pair >> 6] & (1 << UInt64(pair & 63)) != 0, let list = index[SecretScrubber.key(text, at: at)] else { continue }
                for i in list where !found.contains(i) && text[at...].starts(with: bytes[i]) { found.insert(i) }
            }
        }
        return found.sorted()
    }

    private static func key(_ bytes: [UInt8], at start: Int) -> UInt64 {
        var key: UInt64 = 0
        for offset in 0..<6 { key = key << 8 | UInt64(bytes[start + offset]) }
        return key
    }

    /// True when `text` holds U+212A, U+037E or U+1FEF, which compare equal to `K`, `;` and `` ` ``.
    private static func holdsASCIIEquivalent(_ text: [UInt8]) -> Bool {
        guard text.count >= 2 else { return false }
        for at in 0..<(text.count - 1) where text[at] >= 0xCD {
            if text[at] == 0xCD && text[at + 1] == 0xBE { return true }
            guard at + 2 < text.count else { continue }
            if text[at] == 0xE2 && text[at + 1] == 0x84 && text[at + 2] == 0xAA { return true }
            if text[at] == 0xE1 && text[at + 1] == 0xBF && text[at + 2] == 0xAF { return true }
        }
        return false
    }
}
