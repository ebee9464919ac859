@testable import StubCore
import Testing

/// `{{now …}}` against a fixed time, and what parse says about forms that are not helpers or are
/// wrong.
extension TemplateHelperTests {
    @Test func nowWritesTheFixedTimeInEachFormat() throws {
        #expect(try render("now") == "2026-12-06T19:15:28Z")
        #expect(try render("now iso") == "2026-12-06T19:15:28Z")
        #expect(try render("now unix") == "1796584528")
        #expect(try render("now unixms") == "1796584528750")
        #expect(try render("now http") == "Sun, 06 Dec 2026 19:15:28 GMT")
        #expect(try render("now date") == "2026-12-06")
    }

    @Test func nowMovesByItsOffsetInEitherOrder() throws {
        #expect(try helper("now +1h") == .now(offsetSeconds: 3600, format: .iso))
        #expect(try render("now +1h") == "2026-12-06T20:15:28Z")
        #expect(try render("now -30m unix") == "1796582728")
        #expect(try render("now unix -30m") == "1796582728")
        #expect(try render("now +45s") == "2026-12-06T19:16:13Z")
        #expect(try render("now +30d date") == "2027-01-05")
        #expect(try render("now   -1d   http") == "Sat, 05 Dec 2026 19:15:28 GMT")
        #expect(try render("now -0s unix") == "1796584528")
    }

    @Test func nowBeforeNineteenSeventyAndAtTheEdgesDoesNotTrap() {
        var generator = SeededGenerator(seed: 0)
        let before = TemplateHelper.now(offsetSeconds: -86_400, format: .iso)
        #expect(before.render(now: 0.5, generator: &generator, counter: 0) == "1969-12-31T00:00:00Z")
        #expect(TemplateHelper.now(offsetSeconds: 0, format: .unix).render(now: -1.5, generator: &generator, counter: 0) == "-2")
        #expect(TemplateHelper.now(offsetSeconds: 0, format: .iso).render(now: .infinity, generator: &generator, counter: 0) == "1970-01-01T00:00:00Z")
        #expect(TemplateHelper.now(offsetSeconds: 0, format: .iso).render(now: 1e300, generator: &generator, counter: 0) == "9999-12-31T23:59:59Z")
        #expect(TemplateHelper.now(offsetSeconds: 0, format: .date).render(now: -1e300, generator: &generator, counter: 0) == "0001-01-01")
    }

    @Test func placeholdersThatAreNotHelpersAreLeftToTheCaller() {
        for text in ["path.id", "body.x", "state.x", "method", "request.path", "query.now", "header.uuid",
                     "json body.user", "items", "nowhere", "uuids", "counter.x", "random", "fake", "", "NOW"] {
            #expect(TemplateHelper.parse(text) == nil, "\(text)")
        }
    }

    @Test func eachBadFormSaysWhatWasExpected() throws {
        let cases: [(String, [String])] = [
            ("now +1x", ["expected an offset like +1h (s, m, h or d), found +1x"]),
            ("now +h", ["expected an offset like +1h", "found +h"]),
            ("now -", ["expected an offset like +1h", "found -"]),
            ("now +1.5h", ["expected an offset like +1h", "found +1.5h"]),
            ("now +9999999999999d", ["expected an offset like +1h", "found +9999999999999d"]),
            ("now +36526d", ["at most 36525 days", "found +36526d"]),
            ("now tomorrow", ["iso, unix, unixms, http or date", "offset like +1h", "found tomorrow"]),
            ("now +1h -1h", ["at most one offset", "-1h"]),
            ("now unix http", ["at most one format", "http"]),
            ("uuid v7", ["expected nothing after uuid, found v7"]),
            ("counter 3", ["expected nothing after counter, found 3"]),
            ("random.int", ["random.int LO HI with two whole numbers", "found nothing"]),
            ("random.int 1", ["random.int LO HI with two whole numbers", "found 1"]),
            ("random.int 1 x", ["two whole numbers", "found 1 x"]),
            ("random.int 1 2 3", ["two whole numbers", "found 1 2 3"]),
            ("random.int 100 1", ["LO at most HI", "found 100 1"]),
            ("random.string", ["length from 1 to 1024", "found nothing"]),
            ("random.string 0", ["length from 1 to 1024", "found 0"]),
            ("random.string 1025", ["length from 1 to 1024", "found 1025"]),
            ("random.float 1 2", ["random.int LO HI or random.string LENGTH", "found random.float"]),
            ("fake.foo", ["fake.name, fake.firstName, fake.lastName, fake.email, fake.company, fake.city, fake.phone, fake.word", "found fake.foo"]),
            ("fake.name x", ["expected nothing after fake.name, found x"]),
        ]
        for (text, pieces) in cases {
            let text = try message(text)
            for piece in pieces { #expect(text.contains(piece), "\(text) lacks \(piece)") }
        }
    }

    @Test func theFormsNameEveryHelper() {
        for piece in ["{{now}}", "{{now +1h unix}}", "iso, unix, unixms, http or date", "{{uuid}}", "{{counter}}",
                      "{{random.int LO HI}}", "{{random.string LENGTH}}", "{{fake.word}}", "{{fake.email}}"] {
            #expect(TemplateHelper.forms.contains(piece), "\(piece)")
        }
    }
}
