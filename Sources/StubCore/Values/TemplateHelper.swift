/// One value helper inside `{{…}}`: the current time, ids, counters, random and fake values.
///
/// Unlike the request placeholders these values move: each render asks for the time, the route's
/// counter and a generator. Given the same three, a helper always writes the same text, which is
/// what lets a seeded run repeat itself.
package enum TemplateHelper: Sendable, Equatable {
    /// `{{now}}`, `{{now +1h}}`, `{{now -30m unix}}`: the render's time moved by an offset, in a format.
    case now(offsetSeconds: Int, format: TimeFormat)
    /// `{{uuid}}`: an RFC 4122 version 4 UUID in lower case, from the generator.
    case uuid
    /// `{{counter}}`: the route's counter for this render.
    case counter
    /// `{{random.int 1 100}}`: a whole number between the two bounds, both included.
    case randomInt(Int, Int)
    /// `{{random.string 12}}`: that many ASCII letters and digits.
    case randomString(Int)
    /// `{{fake.name}}` and the other made-up values.
    case fake(FakeKind)

    /// The forms, for error messages.
    package static let forms = "{{now}}, {{now +1h unix}} (formats \(TimeFormat.names); offsets +N or -N with s, m, h or d), "
        + "{{uuid}}, {{counter}}, {{random.int LO HI}}, {{random.string LENGTH}}, "
        + FakeKind.allCases.map { "{{fake.\($0.rawValue)}}" }.joined(separator: ", ")

    /// The longest `random.string`.
    static let maxStringLength = 1024
    /// The largest offset either way: 100 years of days, far past any token's expiry.
    static let maxOffsetDays = 36_525
    /// What `random.string` is made of.
    private static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789".utf8)
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The value for one render: `now` is Unix seconds, `generator` draws random, fake and uuid
    /// values, `counter` is the route's counter for this render (the caller increments it).
    package func render(now: Double, generator: inout SeededGenerator, counter: Int) -> String {
        switch self {
        case .now(let offset, let format):
            return format.format(now + Double(offset))
        case .uuid:
            return TemplateHelper.uuid(&generator)
        case .counter:
            return String(counter)
        case .randomInt(let lower, let upper):
            return String(generator.next(in: lower, upper))
        case .randomString(let length):
            var bytes: [UInt8] = []
            bytes.reserveCapacity(length)
            for _ in 0..<length { bytes.append(generator.pick(TemplateHelper.alphanumerics)) }
            return String(decoding: bytes, as: UTF8.self)
        case .fake(let kind):
            return kind.value(&generator)
        }
    }

    /// 128 bits from the generator with the version (4) and variant (10xx) bits set, written as
    /// `xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx` (RFC 4122 §4.4).
    private static func uuid(_ generator: inout SeededGenerator) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(16)
        for word in [generator.next(), generator.next()] {
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        var out: [UInt8] = []
        out.reserveCapacity(36)
        for (index, byte) in bytes.enumerated() {
            if index == 4 || index == 6 || index == 8 || index == 10 { out.append(UInt8(ascii: "-")) }
            out.append(hexDigits[Int(byte >> 4)])
            out.append(hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
