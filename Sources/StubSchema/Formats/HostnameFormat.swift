/// RFC 1123 host names: dot-separated labels of letters, digits and inner hyphens, 63 bytes a
/// label and 253 in all. A label starting `xn--` is an IDNA A-label: it must decode as Punycode
/// to a label RFC 5891 and RFC 5892 allow (no leading mark, no disallowed exceptions, the
/// contextual rules for joiners, middle dots, Greek and Hebrew signs, and Arabic digits).
enum HostnameFormat {
    static func holds(_ s: String) -> Bool {
        let bytes = Array(s.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        let labels = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            guard (1...63).contains(label.count), label.allSatisfy({ StringFormats.isAlpha($0) || StringFormats.isDigit($0) || $0 == 0x2D }),
                  label.first != 0x2D, label.last != 0x2D else { return false }
            let text = String(decoding: label, as: UTF8.self).lowercased()
            if text.hasPrefix("xn--") {
                guard let decoded = Punycode.decode(String(text.dropFirst(4))) else { return false }
                return IDNALabel.isValid(decoded)
            }
            return true
        }
    }
}

/// RFC 3492 Punycode, decoding only.
enum Punycode {
    static func decode(_ input: String) -> [Unicode.Scalar]? {
        let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
        var output: [UInt32] = []
        var chars = Array(input.utf8)
        if let dash = chars.lastIndex(of: UInt8(ascii: "-")) {
            output = chars[..<dash].map(UInt32.init)
            guard output.allSatisfy({ $0 < 0x80 }) else { return nil }
            chars = Array(chars[(dash + 1)...])
        }
        var n = 128, i = 0, bias = 72, index = 0
        func digit(_ b: UInt8) -> Int? {
            switch b {
            case 0x30...0x39: return Int(b) - 22
            case 0x41...0x5A: return Int(b) - 0x41
            case 0x61...0x7A: return Int(b) - 0x61
            default: return nil
            }
        }
        while index < chars.count {
            let oldI = i
            var w = 1, k = base
            while true {
                guard index < chars.count, let d = digit(chars[index]) else { return nil }
                index += 1
                i += d * w
                guard i < 0x10FFFF * 4 else { return nil }
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if d < t { break }
                w *= base - t
                k += base
            }
            let count = output.count + 1
            var delta = oldI == 0 ? (i - oldI) / damp : (i - oldI) / 2
            delta += delta / count
            var kk = 0
            while delta > ((base - tMin) * tMax) / 2 { delta /= base - tMin; kk += base }
            bias = kk + (((base - tMin + 1) * delta) / (delta + skew))
            n += i / count
            i %= count
            guard n <= 0x10FFFF else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        let scalars = output.compactMap(Unicode.Scalar.init)
        return scalars.count == output.count ? scalars : nil
    }
}

/// The IDNA2008 rules a decoded label must follow, as far as they can be told from Unicode
/// properties without the full derived table.
enum IDNALabel {
    static func isValid(_ label: [Unicode.Scalar]) -> Bool {
        guard let first = label.first else { return false }
        // RFC 5891 §4.2.3.1: no "--" in the third and fourth positions of a U-label.
        if label.count >= 4, label[2] == "-", label[3] == "-" { return false }
        let marks: [Unicode.GeneralCategory] = [.nonspacingMark, .spacingMark, .enclosingMark]
        if marks.contains(first.properties.generalCategory) { return false }
        let arabicIndic = label.contains { (0x660...0x669).contains($0.value) }
        let extendedArabicIndic = label.contains { (0x6F0...0x6F9).contains($0.value) }
        if arabicIndic && extendedArabicIndic { return false }
        for (i, scalar) in label.enumerated() {
            let before = i > 0 ? label[i - 1] : nil
            let after = i + 1 < label.count ? label[i + 1] : nil
            switch scalar.value {
            case 0x0640, 0x07FA, 0x302E, 0x302F, 0x3031...0x3035, 0x303B: return false
            case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007: continue
            case 0x00B7: if before?.value != 0x6C || after?.value != 0x6C { return false }
            case 0x0375: if !(after.map(isGreek) ?? false) { return false }
            case 0x05F3, 0x05F4: if !(before.map(isHebrew) ?? false) { return false }
            case 0x30FB: if !label.contains(where: { isHiraganaKatakanaHan($0) && $0.value != 0x30FB }) { return false }
            case 0x200D: if before.map({ $0.properties.canonicalCombiningClass.rawValue != 9 }) ?? true { return false }
            case 0x200C:
                if before.map({ $0.properties.canonicalCombiningClass.rawValue == 9 }) ?? false { continue }
                // The joining rule: a joining letter on each side (Arabic-script letters, roughly).
                let leftJoins = label[..<i].reversed().first { !isTransparent($0) }.map(isJoining) ?? false
                let rightJoins = label[(i + 1)...].first { !isTransparent($0) }.map(isJoining) ?? false
                if !(leftJoins && rightJoins) { return false }
            default:
                let category = scalar.properties.generalCategory
                if [.control, .format, .surrogate, .privateUse, .unassigned, .spaceSeparator, .lineSeparator, .paragraphSeparator].contains(category) { return false }
                if scalar.properties.changesWhenCaseFolded || scalar.properties.changesWhenNFKCCaseFolded { return false }
            }
        }
        return true
    }

    static func isGreek(_ s: Unicode.Scalar) -> Bool { (0x370...0x3FF).contains(s.value) || (0x1F00...0x1FFF).contains(s.value) }
    static func isHebrew(_ s: Unicode.Scalar) -> Bool { (0x591...0x5F4).contains(s.value) || (0xFB1D...0xFB4F).contains(s.value) }
    static func isHiraganaKatakanaHan(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return (0x3040...0x30FF).contains(v) || (0x31F0...0x31FF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x4E00...0x9FFF).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0x20000...0x2FA1F).contains(v)
    }
    static func isTransparent(_ s: Unicode.Scalar) -> Bool { [.nonspacingMark, .enclosingMark, .format].contains(s.properties.generalCategory) }
    static func isJoining(_ s: Unicode.Scalar) -> Bool {
        let v = s.value
        return ((0x620...0x64A).contains(v) || (0x66E...0x6D3).contains(v) || (0x6FA...0x6FF).contains(v) || (0x750...0x77F).contains(v))
            && s.properties.generalCategory == .otherLetter
    }
}
