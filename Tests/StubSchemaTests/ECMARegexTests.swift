import StubSchema
import Testing

/// The linear-time ECMA-262 matcher `pattern` runs on, and the strings it makes for bodies.
@Suite struct ECMARegexTests {
    func match(_ pattern: String, _ text: String) throws -> Bool { try ECMARegex(pattern).matches(text) }

    @Test func matchesAnywhereUnlessAnchored() throws {
        #expect(try match("b", "abc"))
        #expect(try !match("^b", "abc"))
        #expect(try match("c$", "abc"))
        #expect(try !match("^a$", "abc"))
        #expect(try match("^(ab|cd)+$", "abcdab"))
        #expect(try !match("^(ab|cd)+$", "abcda"))
        #expect(try match("^a{2,3}$", "aaa") && !match("^a{2,3}$", "aaaa") && !match("^a{2,3}$", "a"))
        #expect(try match("^a{2,}$", "aaaaaa") && match("^x{0}$", ""))
        #expect(try match("^[^/]+/line_items", "tax/line_items") && !match("^[^/]+/line_items", "/line_items"))
    }

    @Test func classesFollowECMA262NotUnicodeRules() throws {
        // \d, \w and \b are ASCII in ECMA-262; Swift's Regex would call these digits and letters.
        #expect(try !match("^\\d$", "١"))
        #expect(try !match("^\\w$", "é"))
        #expect(try match("^\\s$", "\u{2003}"))
        #expect(try !match("^.$", "\n") && match("^.$", "🐲"))
        #expect(try match("^\\p{L}+$", "Ωmega") && !match("^\\P{L}$", "x"))
        #expect(try match("^[\\w-]+$", "a-b_c") && match("^[a\\-z]$", "-"))
        #expect(try match("\\bfoo\\b", "a foo b") && !match("\\bfoo\\b", "afoo"))
        #expect(try match("^\\cC$", "\u{3}") && match("^\\u{1F432}$", "🐲") && match("^\\ud83d\\udc32$", "🐲"))
        #expect(try match("^[^\\d]$", "x") && !match("^[^\\d]$", "5") && match("^[\\D]$", "x"))
    }

    @Test func aCatastrophicPatternCostsLinearSteps() throws {
        let regex = try ECMARegex("^(a+)+$")
        var steps = 0, twice = 0
        #expect(regex.matches(String(repeating: "a", count: 5_000) + "!", steps: &steps) == false)
        #expect(regex.matches(String(repeating: "a", count: 10_000) + "!", steps: &twice) == false)
        // A backtracking engine takes 2^n steps here; this one a few per scalar and instruction.
        #expect(steps < 5_000 * 40, "\(steps) steps")
        #expect(Double(twice) / Double(steps) < 2.1, "\(steps) then \(twice) steps")
        var limited = 0
        #expect(regex.matches(String(repeating: "a", count: 5_000) + "!", steps: &limited, limit: 1_000) == nil)
    }

    @Test func refusesWhatCannotRunInLinearTimeWithAReason() {
        for (pattern, words) in [("(?=a)b", "lookaround"), ("(a)\\1", "backreference"), ("[", "missing ']'"), ("a**", "nothing to repeat"),
                                 ("\\p{Script=Greek}", "Unicode property"), ("\\a", "unknown escape")] {
            do {
                _ = try ECMARegex(pattern)
                Issue.record("\(pattern) accepted")
            } catch {
                #expect(error.reason.contains(words), "\(pattern): \(error.reason)")
            }
        }
    }

    @Test func samplesMatchTheirPatternAndLengths() throws {
        for pattern in ["^/v1/financial_connections/accounts", "^[a-z0-9-]{1,63}$", "^((xn--)?[a-zA-Z0-9]+(-[a-zA-Z0-9]+)*\\.)+[a-zA-Z]{2,}\\.?$",
                        "^$|[0-9a-f]{8}\\b-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-\\b[0-9a-f]{12}", "^\\+?[1-9]\\d{1,14}$", ".+\\.[Jj][Ss][Oo][Nn][Ll]$"] {
            let regex = try ECMARegex(pattern)
            let sample = try #require(regex.sample(), "\(pattern)")
            #expect(regex.matches(sample), "\(pattern) → \(sample)")
        }
        let long = try #require(try ECMARegex("^[a-z]+$").sample(minLength: 12, maxLength: 20))
        #expect(long.count >= 12 && long.count <= 20)
        #expect(try ECMARegex("^[a-z]{2}$").sample(minLength: 5) == nil)
    }
}
