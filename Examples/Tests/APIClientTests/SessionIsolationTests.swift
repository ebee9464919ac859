import APIClient
import Foundation
import StubdClient
import StubTesting
import Testing

/// Twenty tests in parallel (Swift Testing's default), each overriding the same route with its
/// own variant and reading its own journal, on one server: the `.stubServer` trait's sessions
/// keep them apart. `make test` runs this suite in parallel on its own;
/// `bench/trait-isolation.sh` runs it 100 times.
@Suite(.stubServer(files: IsolationStubs.files))
struct SessionIsolationTests {
    static let count = IsolationStubs.count

    /// Tests wait here until all twenty have set their overrides (or 10 s passed, when the suite
    /// runs serially), so the requests below run while every other test's override is in place.
    static let gate = Gate()

    // Twenty tests, not one with twenty arguments: what a suite of real tests looks like.
    @Test func test00() async throws { try await check(0) }
    @Test func test01() async throws { try await check(1) }
    @Test func test02() async throws { try await check(2) }
    @Test func test03() async throws { try await check(3) }
    @Test func test04() async throws { try await check(4) }
    @Test func test05() async throws { try await check(5) }
    @Test func test06() async throws { try await check(6) }
    @Test func test07() async throws { try await check(7) }
    @Test func test08() async throws { try await check(8) }
    @Test func test09() async throws { try await check(9) }
    @Test func test10() async throws { try await check(10) }
    @Test func test11() async throws { try await check(11) }
    @Test func test12() async throws { try await check(12) }
    @Test func test13() async throws { try await check(13) }
    @Test func test14() async throws { try await check(14) }
    @Test func test15() async throws { try await check(15) }
    @Test func test16() async throws { try await check(16) }
    @Test func test17() async throws { try await check(17) }
    @Test func test18() async throws { try await check(18) }
    @Test func test19() async throws { try await check(19) }

    /// Overrides `answer` with this test's variant, waits for the others to do the same, then
    /// checks three answers and the journal are this test's own.
    func check(_ n: Int) async throws {
        let stubs = try #require(StubdTestSession.current)
        try await stubs.client.override(route: "answer", variant: "200-v\(n)")
        await Self.gate.arriveAndWait(for: Self.count)
        let client = APIClient(server: stubs.baseURL)
        for _ in 0..<3 {
            let answer = try await client.request(Answer(), as: [String: Int].self)
            #expect(answer["n"] == n)
        }
        let journal = try await stubs.client.journal(route: "answer")
        #expect(journal.count == 3)
        #expect(try await stubs.client.sessions().contains { $0.session == stubs.id })
    }

    struct Answer: TargetType {
        var baseURL: URL { URL(string: "http://api.example.com")! }
        var path: String { "/answer" }
        var method: HTTPMethod { .get }
        var task: RequestTask { .plain }
        func error(status: Int, body: Data) -> (any Error)? { status == 200 ? nil : URLError(.badServerResponse) }
    }
}

/// The suite's stubs, outside the suite: its attribute reads them.
enum IsolationStubs {
    static let count = 20

    /// One route with a variant per test: `GET /answer` answers `{"n": i}` under variant `200-vi`.
    static var files: [String: String] {
        var variants: [String] = []
        var files: [String: String] = [:]
        for i in 0..<count {
            variants.append(#""200-v\#(i)": {}"#)
            files["answer/200-v\(i).json"] = #"{"n": \#(i)}"#
        }
        files["answer/route.json"] = #"{"method": "GET", "path": "/answer", "default": "200-v0", "variants": {\#(variants.joined(separator: ", "))}}"#
        return files
    }
}

/// Counts arrivals and lets waiters through once `count` have arrived, or after 10 s (a run
/// with fewer tests, or serialized, goes on rather than waiting for arrivals that never come).
actor Gate {
    private var arrived = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func arriveAndWait(for count: Int) async {
        arrived += 1
        if arrived >= count { return openAll() }
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: .seconds(10))
            await self?.openAll()
        }
        await withCheckedContinuation { waiters.append($0) }
        timeout.cancel()
    }

    private func openAll() {
        let opened = waiters
        waiters = []
        for waiter in opened { waiter.resume() }
    }
}
