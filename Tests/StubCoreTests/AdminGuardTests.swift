@testable import StubCore
import Testing

/// Which admin requests a browser page may make (none but the dashboard's own), decided from the
/// request's headers alone.
@Suite struct AdminGuardTests {
    func request(_ headers: [(String, String)], method: String = "GET") -> StubRequest {
        StubRequest(method: method, path: "/__stubd/journal", headers: headers)
    }

    @Test(arguments: [
        // (Host, Origin, Sec-Fetch-Site, status on a loopback bind without a token)
        ("127.0.0.1:8080", nil, nil, nil),
        ("localhost:8080", "http://localhost:8080", "same-origin", nil),
        ("[::1]:8080", "http://[::1]:8080", nil, nil),
        ("app.localhost:8080", nil, "none", nil),
        ("127.0.0.2", "http://127.0.0.2:80", nil, nil),
        ("127.0.0.1:8080", "http://127.0.0.1:8080", "same-origin", nil),
        ("127.0.0.1:8080", "http://evil.example", "cross-site", 403),
        ("127.0.0.1:8080", nil, "cross-site", 403),
        ("127.0.0.1:8080", nil, "same-site", 403),
        ("127.0.0.1:8080", "http://localhost:3000", nil, 403),
        ("127.0.0.1:8080", "null", nil, 403),
        ("127.0.0.1:8080", "https://127.0.0.1:8080", nil, 403),
        ("evil.example:8080", "http://evil.example:8080", "same-origin", 421),
        ("evil.example:8080", nil, nil, 421),
        ("127.0.0.1.evil.example", nil, nil, 421),
        ("localhost.evil.example:8080", nil, nil, 421),
        ("", nil, nil, 421),
    ] as [(String, String?, String?, Int?)])
    func aLoopbackServerWithoutATokenAnswersItsOwnPagesOnly(host: String, origin: String?, site: String?, status: Int?) {
        var headers = [("Host", host)]
        if let origin { headers.append(("Origin", origin)) }
        if let site { headers.append(("Sec-Fetch-Site", site)) }
        let refusal = AdminGuard(checksHost: true).refusal(request(headers))
        #expect(refusal?.status == status, "Host \(host), Origin \(origin ?? "-"), Sec-Fetch-Site \(site ?? "-")")
    }

    @Test func noHostAtAllIsNoBrowserAndIsAnswered() {
        // HAProxy's `option httpchk GET /__stubd/health` is HTTP/1.0 without a Host.
        #expect(AdminGuard(checksHost: true).refusal(StubRequest(method: "GET", path: "/__stubd/health")) == nil)
    }

    @Test func allowedNamesAndServersThatDoNotCheckHostAnswerAnyName() {
        let named = [("Host", "Stubd.Internal:8080")]
        #expect(AdminGuard(checksHost: true, allowedHosts: ["stubd.internal"]).refusal(request(named)) == nil)
        #expect(AdminGuard(checksHost: true).refusal(request(named))?.status == 421)
        #expect(AdminGuard(checksHost: false).refusal(request(named)) == nil)
        // A foreign page is refused whatever the Host checks.
        #expect(AdminGuard(checksHost: false).refusal(request(named + [("Origin", "http://evil.example")]))?.status == 403)
        #expect(AdminGuard(checksHost: false).refusal(request(named + [("Origin", "http://stubd.internal:8080")])) == nil)
    }
}
