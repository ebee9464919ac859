/// Text from a user or a file made safe to print on a terminal: control characters (C0, DEL, C1)
/// and the bidirectional overrides that can reorder what a reader sees are written as `\u{1B}`,
/// so a value echoed in an error can neither move the cursor nor hide what follows it.
enum TerminalText {
    /// `text` with every control character escaped; newlines and tabs kept when `keepingLines`.
    static func escaped(_ text: String, keepingLines: Bool = false) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if keepingLines && (scalar == "\n" || scalar == "\t") {
                out.unicodeScalars.append(scalar)
            } else if isUnsafe(scalar) {
                out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0..<0x20, 0x7F..<0xA0: true
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F: true  // embeddings, overrides, isolates, marks
        default: false
        }
    }
}
