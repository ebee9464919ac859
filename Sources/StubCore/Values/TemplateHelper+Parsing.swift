extension TemplateHelper {
    /// The helper `text` (the trimmed inside of `{{…}}`) names.
    ///
    /// nil when `text` is not a helper at all: its first word is not `now`, `uuid`, `counter`,
    /// `random.…` or `fake.…`, so other placeholders (`path.id`, `body.x`, `state.x`) are parsed
    /// on. A failure, naming what was expected and what was found, when it starts like a helper
    /// but is wrong: `{{now +1x}}`, `{{random.int 9 1}}`, `{{fake.foo}}`.
    package static func parse(_ text: String) -> Result<TemplateHelper, TemplateError>? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).map(String.init)
        guard let head = words.first else { return nil }
        let rest = Array(words.dropFirst())
        switch head {
        case "now": return parseNow(rest)
        case "uuid": return rest.isEmpty ? .success(.uuid) : nothingAfter(head, rest)
        case "counter": return rest.isEmpty ? .success(.counter) : nothingAfter(head, rest)
        case "random.int": return parseRandomInt(rest)
        case "random.string": return parseRandomString(rest)
        default: break
        }
        if head.hasPrefix("random.") {
            return fail("expected random.int LO HI or random.string LENGTH, found \(head)")
        }
        if head.hasPrefix("fake.") {
            guard let kind = FakeKind(rawValue: String(head.dropFirst("fake.".count))) else {
                return fail("expected one of \(FakeKind.names), found \(head)")
            }
            return rest.isEmpty ? .success(.fake(kind)) : nothingAfter(head, rest)
        }
        return nil
    }

    /// `now` followed by at most one offset and one format, in either order.
    private static func parseNow(_ words: [String]) -> Result<TemplateHelper, TemplateError> {
        var offset: Int?, format: TimeFormat?
        for word in words {
            if word.hasPrefix("+") || word.hasPrefix("-") {
                guard offset == nil else { return fail("expected at most one offset after now, found a second one, \(word)") }
                switch parseOffset(word) {
                case .success(let seconds): offset = seconds
                case .failure(let error): return .failure(error)
                }
            } else if let named = TimeFormat(rawValue: word) {
                guard format == nil else { return fail("expected at most one format after now, found a second one, \(word)") }
                format = named
            } else {
                return fail("expected a time format (\(TimeFormat.names)) or an offset like +1h after now, found \(word)")
            }
        }
        return .success(.now(offsetSeconds: offset ?? 0, format: format ?? .iso))
    }

    /// `+1h`, `-30m`, `+2d`, `+90s` as seconds.
    private static func parseOffset(_ word: String) -> Result<Int, TemplateError> {
        let expected = "expected an offset like +1h (s, m, h or d), found \(word)"
        let sign = word.hasPrefix("-") ? -1 : 1
        let body = word.dropFirst()
        guard let unit = body.last, body.count >= 2 else { return fail(expected) }
        let digits = body.dropLast()
        // At most 12 digits, so that the product below cannot overflow before the bound is checked.
        guard digits.count <= 12, digits.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
              let count = Int(digits) else { return fail(expected) }
        let scale: Int
        switch unit {
        case "s": scale = 1
        case "m": scale = 60
        case "h": scale = 3600
        case "d": scale = 86_400
        default: return fail(expected)
        }
        guard count * scale <= maxOffsetDays * 86_400 else {
            return fail("expected an offset of at most \(maxOffsetDays) days (100 years), found \(word)")
        }
        return .success(sign * count * scale)
    }

    /// `random.int LO HI`: two whole numbers, the first not above the second.
    private static func parseRandomInt(_ words: [String]) -> Result<TemplateHelper, TemplateError> {
        let found = words.isEmpty ? "nothing" : words.joined(separator: " ")
        guard words.count == 2, let lower = Int(words[0]), let upper = Int(words[1]) else {
            return fail("expected random.int LO HI with two whole numbers, like random.int 1 100, found \(found)")
        }
        guard lower <= upper else {
            return fail("expected random.int LO HI with LO at most HI, found \(found)")
        }
        return .success(.randomInt(lower, upper))
    }

    /// `random.string LENGTH`: a length from 1 to 1024.
    private static func parseRandomString(_ words: [String]) -> Result<TemplateHelper, TemplateError> {
        guard words.count == 1, let length = Int(words[0]), (1...maxStringLength).contains(length) else {
            let found = words.isEmpty ? "nothing" : words.joined(separator: " ")
            return fail("expected random.string LENGTH with a length from 1 to \(maxStringLength), like random.string 12, found \(found)")
        }
        return .success(.randomString(length))
    }

    private static func nothingAfter<T>(_ head: String, _ rest: [String]) -> Result<T, TemplateError> {
        fail("expected nothing after \(head), found \(rest.joined(separator: " "))")
    }

    private static func fail<T>(_ message: String) -> Result<T, TemplateError> {
        .failure(TemplateError(message: message))
    }
}
