@testable import StubCore
import Testing

/// The helpers whose values move: `{{now}}`, `{{uuid}}`, `{{counter}}`, `{{random.…}}` and
/// `{{fake.…}}`. A seed fixes every drawn value; a bad form says what was expected.
@Suite struct TemplateHelperTests {
    /// 2026-12-06T19:15:28.750Z, a Sunday.
    let fixedNow = 1_796_584_528.75

    func helper(_ text: String) throws -> TemplateHelper {
        let parsed = try #require(TemplateHelper.parse(text), "\(text) should be a helper")
        return try parsed.get()
    }

    func message(_ text: String) throws -> String {
        let parsed = try #require(TemplateHelper.parse(text), "\(text) should be a helper")
        guard case .failure(let error) = parsed else {
            Issue.record("\(text) should not parse")
            return ""
        }
        return error.message
    }

    func render(_ text: String, seed: UInt64 = 1, counter: Int = 0) throws -> String {
        var generator = SeededGenerator(seed: seed)
        return try helper(text).render(now: fixedNow, generator: &generator, counter: counter)
    }

    // MARK: The generator

    @Test func theGeneratorIsSplitMix64() {
        // The published first outputs for seed 0: the same on every platform and Swift release.
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
        #expect(generator.next() == 0x6E78_9E6A_A1B9_65F4)
        #expect(generator.next() == 0x06C4_5D18_8009_454F)
    }

    @Test func theSameSeedGivesTheSameValues() throws {
        let forms = ["uuid", "random.int 1 1000000", "random.string 32", "fake.name", "fake.email", "fake.company", "fake.phone"]
        var first = SeededGenerator(seed: 42), second = SeededGenerator(seed: 42)
        for _ in 0..<20 {
            for form in forms {
                let parsed = try helper(form)
                let a = parsed.render(now: fixedNow, generator: &first, counter: 0)
                let b = parsed.render(now: fixedNow, generator: &second, counter: 0)
                #expect(a == b, "\(form)")
            }
        }
    }

    @Test func differentSeedsGiveDifferentValues() throws {
        var seen = Set<String>()
        for seed: UInt64 in [0, 1, 2, 42, .max] {
            seen.insert(try render("uuid", seed: seed) + render("random.string 16", seed: seed))
        }
        #expect(seen.count == 5)
        var a = SeededGenerator(seed: 7), b = SeededGenerator(seed: 8)
        #expect((0..<4).map { _ in a.next() } != (0..<4).map { _ in b.next() })
    }

    @Test func aBoundedDrawStaysInItsRangeAndReachesBothEnds() {
        var generator = SeededGenerator(seed: 3)
        var counts = [Int](repeating: 0, count: 7)
        for _ in 0..<7000 { counts[Int(generator.next(below: 7))] += 1 }
        // Each of seven values about 1000 times: far from it would mean a biased draw.
        #expect(counts.allSatisfy { (850...1150).contains($0) }, "\(counts)")
        let full = (0..<8).map { _ in generator.next(in: .min, .max) }
        #expect(Set(full).count == 8)
        #expect(generator.next(in: 5, 5) == 5)
    }

    // MARK: Random values

    @Test func randomIntStaysWithinItsBoundsAndHitsBothEnds() throws {
        let parsed = try helper("random.int 1 6")
        #expect(parsed == .randomInt(1, 6))
        var generator = SeededGenerator(seed: 99)
        var seen = Set<Int>()
        for _ in 0..<1000 {
            let value = try #require(Int(parsed.render(now: fixedNow, generator: &generator, counter: 0)))
            #expect((1...6).contains(value))
            seen.insert(value)
        }
        #expect(seen == Set(1...6))
        #expect(try render("random.int -3 -3") == "-3")
        #expect(try helper("random.int -10 10") == .randomInt(-10, 10))
    }

    @Test func randomStringHasTheLengthAndOnlyLettersAndDigits() throws {
        for length in [1, 12, 1024] {
            let value = try render("random.string \(length)")
            #expect(value.utf8.count == length)
            #expect(value.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) })
        }
        #expect(try render("random.string 64") != render("random.string 64", seed: 2))
    }

    @Test func uuidIsVersionFourInLowerCase() throws {
        var generator = SeededGenerator(seed: 5)
        var seen = Set<String>()
        for _ in 0..<200 {
            let value = TemplateHelper.uuid.render(now: fixedNow, generator: &generator, counter: 0)
            let bytes = Array(value.utf8)
            #expect(bytes.count == 36)
            #expect([8, 13, 18, 23].allSatisfy { bytes[$0] == UInt8(ascii: "-") })
            #expect(value.allSatisfy { $0 == "-" || ("0"..."9").contains($0) || ("a"..."f").contains($0) }, "\(value)")
            #expect(bytes[14] == UInt8(ascii: "4"), "version 4: \(value)")
            #expect("89ab".utf8.contains(bytes[19]), "variant 10xx: \(value)")
            seen.insert(value)
        }
        #expect(seen.count == 200)
    }

    @Test func counterWritesTheCallersCount() throws {
        #expect(try helper("counter") == .counter)
        #expect(try render("counter", counter: 0) == "0")
        #expect(try render("counter", counter: 17) == "17")
    }

    // MARK: Fake values

    @Test func everyFakeKindParsesAndGivesAValue() throws {
        for kind in FakeKind.allCases {
            #expect(try helper("fake.\(kind.rawValue)") == .fake(kind))
            #expect(!(try render("fake.\(kind.rawValue)")).isEmpty)
        }
    }

    @Test func fakeValuesHaveTheirShapes() throws {
        var generator = SeededGenerator(seed: 11)
        for _ in 0..<200 {
            let email = FakeKind.email.value(&generator)
            let parts = email.split(separator: "@").map(String.init)
            #expect(parts.count == 2 && ["example.com", "example.org", "example.net"].contains(parts[1]), "\(email)")
            #expect(email == email.lowercased() && parts[0].split(separator: ".").count == 2, "\(email)")
            let phone = FakeKind.phone.value(&generator)
            #expect(phone.hasPrefix("+1-555-01") && phone.utf8.count == 11 && Int(phone.suffix(2)) != nil, "\(phone)")
            let name = FakeKind.name.value(&generator).split(separator: " ").map(String.init)
            #expect(name.count == 2 && FakeWords.firstNames.contains(name[0]) && FakeWords.lastNames.contains(name[1]))
            #expect(FakeWords.words.contains(FakeKind.word.value(&generator)))
            #expect(FakeWords.cities.contains(FakeKind.city.value(&generator)))
        }
    }

    @Test func theWordListsHoldNothingThatNeedsEscaping() {
        let lists = [FakeWords.firstNames, FakeWords.lastNames, FakeWords.companyStems, FakeWords.companySuffixes,
                     FakeWords.cities, FakeWords.words, FakeWords.emailDomains]
        for list in lists {
            #expect(list.count >= 3 && Set(list).count == list.count)
            #expect(list.allSatisfy { $0.unicodeScalars.allSatisfy { $0.isASCII && $0 != "\"" && $0 != "\\" } })
        }
        for name in FakeWords.firstNames + FakeWords.lastNames {
            #expect(name.unicodeScalars.allSatisfy { $0.properties.isAlphabetic && $0.isASCII }, "\(name)")
        }
    }
}
