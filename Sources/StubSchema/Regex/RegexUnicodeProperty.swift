/// The `\p{…}` names the matcher knows: general categories by short or long name (with or
/// without `General_Category=`/`gc=`), and a few binary properties. Scripts are not known.
enum RegexUnicodeProperty {
    static func named(_ name: String) -> RegexCharacterSet.Property? {
        var key = name
        for prefix in ["General_Category=", "gc="] where key.hasPrefix(prefix) { key = String(key.dropFirst(prefix.count)) }
        switch key {
        case "Any": return .any
        case "digit": return .categories([.decimalNumber])
        case "ASCII": return .ascii
        case "Alphabetic", "Alpha": return .alphabetic
        case "White_Space", "space": return .whiteSpace
        case "Uppercase", "Upper": return .uppercase
        case "Lowercase", "Lower": return .lowercase
        default: break
        }
        if let list = groups[key] { return .categories(list) }
        if let one = single[key] { return .categories([one]) }
        return nil
    }

    private static let single: [String: Unicode.GeneralCategory] = {
        let pairs: [(String, String, Unicode.GeneralCategory)] = [
            ("Lu", "Uppercase_Letter", .uppercaseLetter), ("Ll", "Lowercase_Letter", .lowercaseLetter), ("Lt", "Titlecase_Letter", .titlecaseLetter),
            ("Lm", "Modifier_Letter", .modifierLetter), ("Lo", "Other_Letter", .otherLetter), ("Mn", "Nonspacing_Mark", .nonspacingMark),
            ("Mc", "Spacing_Mark", .spacingMark), ("Me", "Enclosing_Mark", .enclosingMark), ("Nd", "Decimal_Number", .decimalNumber),
            ("Nl", "Letter_Number", .letterNumber), ("No", "Other_Number", .otherNumber), ("Pc", "Connector_Punctuation", .connectorPunctuation),
            ("Pd", "Dash_Punctuation", .dashPunctuation), ("Ps", "Open_Punctuation", .openPunctuation), ("Pe", "Close_Punctuation", .closePunctuation),
            ("Pi", "Initial_Punctuation", .initialPunctuation), ("Pf", "Final_Punctuation", .finalPunctuation), ("Po", "Other_Punctuation", .otherPunctuation),
            ("Sm", "Math_Symbol", .mathSymbol), ("Sc", "Currency_Symbol", .currencySymbol), ("Sk", "Modifier_Symbol", .modifierSymbol),
            ("So", "Other_Symbol", .otherSymbol), ("Zs", "Space_Separator", .spaceSeparator), ("Zl", "Line_Separator", .lineSeparator),
            ("Zp", "Paragraph_Separator", .paragraphSeparator), ("Cc", "Control", .control), ("Cf", "Format", .format),
            ("Cs", "Surrogate", .surrogate), ("Co", "Private_Use", .privateUse), ("Cn", "Unassigned", .unassigned),
        ]
        var table: [String: Unicode.GeneralCategory] = [:]
        for (short, long, category) in pairs { table[short] = category; table[long] = category }
        return table
    }()

    private static let groups: [String: [Unicode.GeneralCategory]] = {
        let letter: [Unicode.GeneralCategory] = [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter]
        let mark: [Unicode.GeneralCategory] = [.nonspacingMark, .spacingMark, .enclosingMark]
        let number: [Unicode.GeneralCategory] = [.decimalNumber, .letterNumber, .otherNumber]
        let punctuation: [Unicode.GeneralCategory] = [.connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
                                                      .initialPunctuation, .finalPunctuation, .otherPunctuation]
        let symbol: [Unicode.GeneralCategory] = [.mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol]
        let separator: [Unicode.GeneralCategory] = [.spaceSeparator, .lineSeparator, .paragraphSeparator]
        let other: [Unicode.GeneralCategory] = [.control, .format, .surrogate, .privateUse, .unassigned]
        return ["L": letter, "Letter": letter, "LC": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter], "Cased_Letter": [.uppercaseLetter, .lowercaseLetter, .titlecaseLetter],
                "M": mark, "Mark": mark, "N": number, "Number": number, "P": punctuation, "Punctuation": punctuation,
                "S": symbol, "Symbol": symbol, "Z": separator, "Separator": separator, "C": other, "Other": other]
    }()
}
