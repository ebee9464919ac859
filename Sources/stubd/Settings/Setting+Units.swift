import StubCore

/// Durations and sizes as users write them, both ways: parsed from `2s` or `16MiB`, and written
/// back in the largest unit that holds them exactly.
extension Setting {
    /// Milliseconds from `1500`, `1500ms`, `2s` or `5m`, up to one day; nil otherwise.
    static func parseDuration(_ text: String) -> Int? {
        let units: [(String, Int)] = [("ms", 1), ("s", 1000), ("m", 60_000)]
        let limit = Limits.maxDurationMs
        for (suffix, factor) in units where text.hasSuffix(suffix) {
            guard let n = Int(text.dropLast(suffix.count)), n >= 0 else { return nil }
            let (ms, overflow) = n.multipliedReportingOverflow(by: factor)
            return overflow || ms > limit ? nil : ms
        }
        guard let n = Int(text), n >= 0, n <= limit else { return nil }
        return n
    }

    /// Bytes from `1048576`, `512k`/`512KiB`, `16m`/`16MiB` or `1g`/`1GiB` (powers of 1,024), from
    /// 1 byte to 4 GiB; nil otherwise.
    static func parseSize(_ text: String) -> Int? {
        let units: [(String, Int)] = [("kib", 1 << 10), ("mib", 1 << 20), ("gib", 1 << 30), ("k", 1 << 10), ("m", 1 << 20), ("g", 1 << 30), ("b", 1)]
        let lower = text.lowercased()
        var digits = Substring(lower)
        var factor = 1
        if let unit = units.first(where: { lower.hasSuffix($0.0) }) {
            digits = lower.dropLast(unit.0.count)
            factor = unit.1
        }
        guard let n = Int(digits), n > 0 else { return nil }
        let (bytes, overflow) = n.multipliedReportingOverflow(by: factor)
        return overflow || bytes > 4 << 30 ? nil : bytes
    }

    /// `300000` → `5m`, `1500` → `1500ms`, `0` → `0`.
    static func durationText(_ ms: Int) -> String {
        if ms == 0 { return "0" }
        if ms % 60_000 == 0 { return "\(ms / 60_000)m" }
        if ms % 1000 == 0 { return "\(ms / 1000)s" }
        return "\(ms)ms"
    }

    /// `16777216` → `16MiB`, `500` → `500`.
    static func sizeText(_ bytes: Int) -> String {
        for (unit, factor) in [("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)] where bytes >= factor && bytes % factor == 0 {
            return "\(bytes / factor)\(unit)"
        }
        return "\(bytes)"
    }

    static func durationWords(minimum: Int) -> String {
        let floor = minimum == 0 ? "" : " of \(durationText(minimum)) or more"
        return "a duration\(floor) up to one day like 1500, 1500ms, 2s or 5m"
    }

    /// `a, b or c`.
    static func list(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words.last!
    }
}
