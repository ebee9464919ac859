/// The variant names a route has given out, and the names it gives: `200`, `200-2` for a
/// capture's answers; `200-user-found` for a labelled one (a Postman example's name, a Pact
/// provider state), made unique with `-2`, `-3` … among those already taken.
///
/// Each label's next free number is remembered: a contract with thousands of interactions under
/// one provider state would otherwise try every number taken before for each new one.
struct VariantNames {
    private var taken = Set<String>()
    /// The number to try first after a label's base name, once the base is taken. Names are
    /// never given back, so every number below it stays taken.
    private var nextNumber: [String: Int] = [:]

    /// Marks `name` as taken.
    mutating func take(_ name: String) { taken.insert(name) }

    /// The name for the `count`-th answer with `status` (unlabelled), or for `label`, unique
    /// among the names taken.
    mutating func name(status: Int, count: Int, label: String?) -> String {
        guard let label else { return count == 1 ? String(status) : "\(status)-\(count)" }
        let base = VariantNames.base(status: status, label: label)
        guard taken.contains(base) else { return base }
        var n = nextNumber[base] ?? 2
        while taken.contains("\(base)-\(n)") { n += 1 }
        nextNumber[base] = n
        return "\(base)-\(n)"
    }

    /// `200-user-found` for status 200 and the label "User found": the label lower-cased, each
    /// run of other characters than ASCII letters and digits one `-`, at most 60 characters.
    static func base(status: Int, label: String) -> String {
        var slug = String(label.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" })
        while slug.contains("--") { slug = slug.replacing("--", with: "-") }
        slug = String(slug.trimming { $0 == "-" }.prefix(60))
        return slug.isEmpty || slug == String(status) ? String(status) : "\(status)-\(slug)"
    }
}
