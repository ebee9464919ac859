@testable import StubCore
import Testing

/// The loader reads names and templates byte by byte: only ASCII digits make a status, only
/// ASCII letters, digits and `-_.` make a variant name, and a template splits at each `/`.
@Suite struct LoaderNameTests {
    @Test(arguments: [
        ("200", 200), ("404-missing", 404), ("599", 599), ("100-a.b_c", 100),
    ]) func aStatusIsThreeASCIIDigitsThenNothingOrADash(name: String, status: Int) {
        #expect(BodyFile.leadingStatus(name) == status)
    }

    @Test(arguments: ["2000", "099", "600", "20", "200x", "x200", "", "٢٠٠", "20\u{0661}", "200\u{301}", "200\u{301}-a", "-200"])
    func otherNamesHaveNoStatus(name: String) {
        #expect(BodyFile.leadingStatus(name) == nil)
    }

    @Test func variantNamesAreASCIILettersDigitsAndDashUnderscoreDot() {
        for name in ["200", "404-not_found.v2", "Z9-a", "a"] { #expect(BodyFile.isVariantName(name), "\(name)") }
        for name in ["", "200 ok", "200/x", "café", "200\u{301}", "a@b", "a[b", "a`b", "a{b", "200+x", "200\r\n"] {
            #expect(!BodyFile.isVariantName(name), "\(name.debugDescription)")
        }
    }

    @Test func templatesSplitAtEverySlashByte() {
        #expect(PathTemplate.split("/api//v1/users/{id}/") == ["api", "v1", "users", "{id}"])
        #expect(PathTemplate.split("café/ü") == ["café", "ü"])
        // A combining mark after a slash does not hide the slash, as it would for characters.
        #expect(PathTemplate.split("a/\u{301}b") == ["a", "\u{301}b"])
        #expect(PathTemplate.split("///") == [])
        #expect(PathTemplate("/users/{id}/files/{name}").segments == [.literal("users"), .parameter("id"), .literal("files"), .parameter("name")])
        #expect(PathTemplate("users//{id}/").text == "/users/{id}")
    }

    @Test func fileNamesSplitAtTheirLastDotAndPathsAtTheirLastSlash() {
        #expect(PathText.pathExtension("200-user.json") == "json")
        #expect(PathText.pathExtension("200.events.json") == "json")
        #expect(PathText.pathExtension(".hidden") == "")
        #expect(PathText.pathExtension("README") == "")
        #expect(PathText.pathExtension("café.txt") == "txt")
        #expect(PathText.deletingPathExtension("200.events.json") == "200.events")
        #expect(PathText.deletingPathExtension(".hidden") == ".hidden")
        #expect(PathText.deletingPathExtension("ü.json") == "ü")
        #expect(PathText.lastComponent("app/user") == "user")
        #expect(PathText.lastComponent("app/user/") == "user")
        #expect(PathText.lastComponent("user") == "user")
        #expect(PathText.lastComponent("/") == "/")
    }
}
