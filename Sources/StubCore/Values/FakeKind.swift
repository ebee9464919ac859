/// A made-up value for `{{fake.KIND}}`: names, an email address, a company, a city, a phone
/// number, a word. Drawn from short lists kept in `FakeWords`, so a seeded run repeats them.
package enum FakeKind: String, Sendable, Equatable, CaseIterable {
    /// A first and last name: `Maya Holt`.
    case name
    /// A first name: `Maya`.
    case firstName
    /// A last name: `Holt`.
    case lastName
    /// `maya.holt@example.org`: lower case, on the domains reserved for examples (RFC 2606), so
    /// no mail can ever reach a real person.
    case email
    /// `Brightfield Labs`.
    case company
    /// `Riverton`.
    case city
    /// `+1-555-0142`: the 555-0100 to 555-0199 range is set aside for fiction.
    case phone
    /// One common word: `lantern`.
    case word

    /// "fake.name, fake.firstName, …", for error messages and the list of forms.
    static var names: String {
        allCases.map { "fake.\($0.rawValue)" }.joined(separator: ", ")
    }

    /// One value of this kind, drawn from `generator`.
    package func value(_ generator: inout SeededGenerator) -> String {
        switch self {
        case .name: return generator.pick(FakeWords.firstNames) + " " + generator.pick(FakeWords.lastNames)
        case .firstName: return generator.pick(FakeWords.firstNames)
        case .lastName: return generator.pick(FakeWords.lastNames)
        case .email:
            let first = generator.pick(FakeWords.firstNames), last = generator.pick(FakeWords.lastNames)
            return "\(first.lowercased()).\(last.lowercased())@\(generator.pick(FakeWords.emailDomains))"
        case .company: return generator.pick(FakeWords.companyStems) + " " + generator.pick(FakeWords.companySuffixes)
        case .city: return generator.pick(FakeWords.cities)
        case .phone:
            let line = Int(generator.next(below: 100))
            return "+1-555-01" + (line < 10 ? "0\(line)" : "\(line)")
        case .word: return generator.pick(FakeWords.words)
        }
    }
}
