import StubCore
import StubSchema

extension SchemaSynthesizer {
    func string(_ schema: JSONValue, variant: Int) -> String {
        // A length that is no count (a fraction, below 0) is ignored, as the validator ignores it;
        // a minimum beyond `longestString` is not made (the body is then named as not fitting).
        let minLength = schema["minLength"]?.wholeNumber(in: 0...SchemaSynthesizer.longestString) ?? 0
        let maxLength = schema["maxLength"]?.wholeNumber(in: 0...Int.max)
        let suffix = variant > 0 ? "-\(variant)" : ""
        var candidates: [String] = []
        if let format = schema["format"]?.scalarText, let sample = SchemaSynthesizer.sample(format: format) { candidates.append(sample) }
        if case .string(let pattern)? = schema["pattern"], let regex = try? ECMARegex(pattern) {
            if let sample = regex.sample(minLength: minLength, maxLength: maxLength) {
                candidates.append(variant > 0 ? (regex.sample(minLength: minLength + variant, maxLength: maxLength) ?? sample) : sample)
            }
            candidates = candidates.filter { regex.matches($0) }
        }
        if schema["pattern"] == nil {
            var plain = "string" + suffix
            if plain.count < minLength { plain += String(repeating: "x", count: minLength - plain.count) }
            if let maxLength, plain.count > maxLength { plain = String(plain.prefix(maxLength)) }
            candidates.append(plain)
        }
        for candidate in candidates {
            let length = candidate.unicodeScalars.count
            if length >= minLength, maxLength.map({ length <= $0 }) ?? true { return candidate }
        }
        return candidates.first ?? "string"
    }

    func integer(_ schema: JSONValue, variant: Int) -> Double {
        var low = schema["minimum"]?.numberValue ?? -Double.infinity
        if schema["exclusiveMinimum"] == .bool(true) { low += 1 }
        if let exclusive = schema["exclusiveMinimum"]?.numberValue { low = max(low, exclusive.rounded(.down) + 1) }
        var high = schema["maximum"]?.numberValue ?? Double.infinity
        if schema["exclusiveMaximum"] == .bool(true) { high -= 1 }
        if let exclusive = schema["exclusiveMaximum"]?.numberValue { high = min(high, exclusive.rounded(.up) - 1) }
        let step = max(1, (schema["multipleOf"]?.numberValue ?? 1).rounded(.up))
        var start = low.isFinite ? low.rounded(.up) : min(1, high.isFinite ? high.rounded(.down) : 1)
        start = (start / step).rounded(.up) * step
        let value = start + Double(variant) * step
        return value <= high ? value : start
    }

    func number(_ schema: JSONValue, variant: Int) -> JSONValue {
        let hasBounds = ["minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"].contains { schema[$0] != nil }
        guard hasBounds else { return .number(1.5 + Double(variant)) }
        if let m = schema["multipleOf"]?.numberValue, m.rounded() != m {
            var low = schema["minimum"]?.numberValue ?? schema["exclusiveMinimum"]?.numberValue ?? m
            if schema["exclusiveMinimum"] != nil { low += m / 2 }
            let value = ((low / m).rounded(.up) + Double(variant)) * m
            return .number(JSONNumber(literal: JSONNumber.format(value)) ?? JSONNumber(value))
        }
        let low = schema["minimum"]?.numberValue ?? (schema["exclusiveMinimum"]?.numberValue).map { $0 + 0.5 }
        let high = schema["maximum"]?.numberValue ?? (schema["exclusiveMaximum"]?.numberValue).map { $0 - 0.5 }
        switch (low, high) {
        case let (l?, h?): return .number(l + (h - l) / 2)
        case let (l?, nil): return .number(l + 1.5 + Double(variant))
        case let (nil, h?): return .number(h - 1.5 - Double(variant))
        default: return .number(1.5)
        }
    }

    /// A plausible value for a string format, or nil for formats with no fixed sample.
    static func sample(format: String) -> String? {
        switch format {
        case "date-time": return "2026-01-01T12:00:00Z"
        case "date": return "2026-01-01"
        case "time": return "12:00:00Z"
        case "uuid": return "3fa85f64-5717-4562-b3fc-2c963f66afa6"
        case "email", "idn-email": return "user@example.com"
        case "uri", "url", "iri": return "https://example.com/"
        case "uri-reference", "iri-reference": return "/example"
        case "hostname", "idn-hostname": return "example.com"
        case "ipv4": return "192.0.2.1"
        case "ipv6": return "2001:db8::1"
        case "byte": return "c3R1YmQ="
        case "duration": return "P1D"
        default: return nil
        }
    }
}
