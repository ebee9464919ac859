@testable import StubCore
import Testing

/// `when.path` resolved against the route's template (`PathCondition`) must answer as reading
/// each parameter from the path and comparing strings did.
@Suite struct PathConditionTests {
    /// The reading it replaces: each parameter percent-decoded into a string, compared with `==`.
    func byReading(_ condition: [String: String], _ template: PathTemplate, _ path: String) -> Bool {
        condition.allSatisfy { name, want in
            guard let got = template.value(of: name, in: path) else { return false }
            return want == "*" || got == want
        }
    }

    func resolved(_ condition: [String: String], _ template: PathTemplate, _ path: String) -> Bool {
        var path = path
        return path.withUTF8 { PathCondition(condition, template: template)!.holds(in: $0) }
    }

    @Test func answersAsReadingEachParameterDid() {
        let templates = [PathTemplate("/users/{id}"), PathTemplate("/orgs/{org}/repos/{repo}"), PathTemplate("/{a}/x/{b}/{c}")]
        let values = ["1", "2", "*", "", "café", "cafe\u{301}", "a b", "a/b", "%41", "A", "x", "\u{212A}"]
        let paths = ["/users/1", "/users/2", "/users//1", "//users/1/", "/users", "/users/caf%C3%A9", "/users/cafe%CC%81", "/users/café",
                     "/users/a%20b", "/users/a%2Fb", "/users/%2541", "/users/%41", "/users/%4", "/users/K", "/orgs/acme/repos/1", "/orgs/acme/repos",
                     "/orgs//acme///repos/x", "/1/x/2/A", "/1/x/2", "/x/x/x/x/x", "/1/x/%41/caf%C3%A9", "/1/x/café/cafe\u{301}"]
        var compared = 0
        for template in templates {
            let names = template.parameterNames + ["missing"]
            for first in names {
                for want in values {
                    var conditions = [[first: want]]
                    for second in names where second != first {
                        conditions += ["*", "1", "x"].map { [first: want, second: $0] }
                    }
                    for condition in conditions {
                        for path in paths {
                            #expect(resolved(condition, template, path) == byReading(condition, template, path),
                                    "\(template.text) \(condition) \(path)")
                            compared += 1
                        }
                    }
                }
            }
        }
        #expect(compared > 5000)
    }

    /// The loader refuses such a name; a route built in code can still carry one.
    @Test func aNameTheTemplateLacksNeverHolds() {
        #expect(!resolved(["nope": "*"], PathTemplate("/users/{id}"), "/users/1"))
        #expect(resolved(["id": "*"], PathTemplate("/users/{id}"), "/users/1"))
    }

    @Test func escapesAndCanonicalEquivalenceCompareAsStringsDo() {
        let template = PathTemplate("/users/{id}")
        #expect(resolved(["id": "café"], template, "/users/caf%C3%A9"))
        // The decomposed é is canonically equivalent to the precomposed one: `String` equality holds.
        #expect(resolved(["id": "café"], template, "/users/cafe%CC%81"))
        #expect(resolved(["id": "a b"], template, "/users/a%20b"))
        #expect(!resolved(["id": "a b"], template, "/users/a%2520b"))
        // The Kelvin sign is canonically equivalent to the ASCII K: a non-ASCII value can hold
        // for an all-ASCII segment.
        #expect(resolved(["id": "\u{212A}"], template, "/users/K"))
    }

    @Test func thePlannerChoosesVariantsByTheResolvedForm() throws {
        let stubs = try TemporaryStubs([
            "app/repo/route.json": """
            {"method": "GET", "path": "/orgs/{org}/repos/{repo}", "default": "200",
             "variants": {
               "200-acme-one": {"status": 200, "body": {"v": 1}, "when": {"path": {"repo": "one", "org": "acme"}}},
               "200-any-cafe": {"status": 200, "body": {"v": 2}, "when": {"path": {"repo": "café"}}},
               "200": {"status": 200, "body": {"v": 0}}
             }}
            """,
        ])
        let catalog = try stubs.catalog()
        func variant(_ path: String) -> String? {
            var request = StubRequest(method: "GET", path: path)
            return ResponsePlanner().plan(&request, catalog: catalog).variantName
        }
        #expect(variant("/orgs/acme/repos/one") == "200-acme-one")
        #expect(variant("/orgs/other/repos/one") == "200")
        #expect(variant("/orgs/other/repos/caf%C3%A9") == "200-any-cafe")
        #expect(variant("/orgs/acme/repos/two") == "200")
    }
}
