import StubCore
import Testing

/// Credentials leave the journal as markers: the scheme and cookie names stay, each secret becomes
/// a fingerprint that tells tokens apart and gives none away.
@Suite struct CredentialRedactionTests {
    @Test func schemesAndCookieNamesStayAndEachSecretBecomesItsMarker() {
        let bearer = CredentialRedaction.redacted(name: "Authorization", value: "Bearer xoxb-test")
        #expect(bearer == "Bearer " + CredentialRedaction.marker(for: "xoxb-test"))
        #expect(!bearer.contains("xoxb-test"))
        #expect(CredentialRedaction.redacted(name: "proxy-authorization", value: "Basic dXNlcjpwdw==")
            == "Basic " + CredentialRedaction.marker(for: "dXNlcjpwdw=="))
        #expect(CredentialRedaction.redacted(name: "AUTHORIZATION", value: "s3cret") == CredentialRedaction.marker(for: "s3cret"))
        #expect(CredentialRedaction.redacted(name: "Cookie", value: "sid=9d8c7b; theme=dark")
            == "sid=\(CredentialRedaction.marker(for: "9d8c7b")); theme=\(CredentialRedaction.marker(for: "dark"))")
        #expect(CredentialRedaction.redacted(name: "Accept", value: "Bearer x") == "Bearer x")
        #expect(CredentialRedaction.redacted(name: "Authorization", value: "") == "")
    }

    @Test func markersTellTokensApartAndAreStableAndShort() {
        let one = CredentialRedaction.marker(for: "token-1")
        #expect(one == CredentialRedaction.marker(for: "token-1"))
        #expect(one != CredentialRedaction.marker(for: "token-2"))
        // SHA-256("abc") begins ba7816bf (FIPS 180-4's example).
        #expect(CredentialRedaction.marker(for: "abc") == "<redacted ba7816bf>")
    }

    @Test func redactingTwiceChangesNothing() {
        let once = CredentialRedaction.redacted(name: "Cookie", value: "a=1; b=2")
        #expect(CredentialRedaction.redacted(name: "Cookie", value: once) == once)
        let bearer = CredentialRedaction.redacted(name: "Authorization", value: "Bearer t")
        #expect(CredentialRedaction.redacted(name: "Authorization", value: bearer) == bearer)
    }

    @Test func aTestChecksTheTokenSentWhicheverWayItIsKept() {
        let sent = StubRequest(method: "GET", path: "/", headers: [("Authorization", "Bearer xoxb-test"), ("Accept", "*/*")])
        let kept = CredentialRedaction.redacted(sent)
        #expect(kept.header("Authorization") != "Bearer xoxb-test")
        #expect(kept.header("Accept") == "*/*")
        for request in [sent, kept] {
            #expect(request.header("authorization", is: "Bearer xoxb-test"))
            #expect(!request.header("Authorization", is: "Bearer other"))
        }
        #expect(!kept.header("Cookie", is: "a=1"))
    }
}
