import Foundation
@testable import StubCore
import Testing
import StubSystem

/// Faults as lifecycle actions: resets, truncation (journaled with the status its head sent),
/// and slow headers.
extension RequestLifecycleTests {
    @Test func faultsAreActions() {
        var life = RequestLifecycle()
        guard case .reset = start(FakeRequest("/users/1?__fault=reset"), &life) else { Issue.record("reset"); return }
        life = RequestLifecycle()
        guard case .close = start(FakeRequest("/users/1?__fault=empty"), &life) else { Issue.record("empty"); return }
        life = RequestLifecycle()
        guard case .writeRaw(let garbage, .close) = start(FakeRequest("/users/1?__fault=garbage"), &life) else { Issue.record("garbage"); return }
        #expect(garbage.count == 512 && !garbage.starts(with: Array("HTTP/".utf8)))
        life = RequestLifecycle()
        guard case .writeRaw(let short, .close) = start(FakeRequest("/users/1?__fault=truncate"), &life) else { Issue.record("truncate"); return }
        #expect(String(decoding: short, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(journal.map(\.fault) == [.reset, .empty, .garbage, .truncate])
        // No head reached the client of the first three; the truncated one got a 200 head.
        #expect(journal.map(\.status) == [0, 0, 0, 200])
    }

    /// A truncated answer is journaled with the status its head carried: the variant's, or 206
    /// for a range, over TLS as in the clear.
    @Test func aTruncatedAnswerIsJournaledWithTheStatusItsHeadSent() {
        var life = RequestLifecycle()
        _ = start(FakeRequest("/users/1?__fault=truncate", headers: [("Range", "bytes=0-3")]), &life)
        life = RequestLifecycle()
        guard case .respond(200, .pulled) = start(FakeRequest("/users/1?__fault=truncate", secure: true), &life) else {
            Issue.record("no pulled body"); return
        }
        #expect(journal.map(\.fault) == [.truncate, .truncate])
        #expect(journal.map(\.status) == [206, 200])
    }

    @Test func truncateInsideTLSIsAPulledBodyThatEndsShort() {
        let request = FakeRequest("/users/1?__fault=truncate", secure: true)
        var life = RequestLifecycle()
        guard case .respond(200, .pulled(let promised?, _)) = start(request, &life) else { Issue.record("no pulled body"); return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let first = buffer.withUnsafeMutableBytes { life.pull(at: 0, into: PullBuffer($0), now: request.startNs, stopping: false, clientGone: false) }
        guard case .copied(let n) = first else { Issue.record("\(first)"); return }
        #expect(n < promised)
        #expect(buffer.withUnsafeMutableBytes { life.pull(at: n, into: PullBuffer($0), now: request.startNs, stopping: false, clientGone: false) } == .abort)
    }

    @Test func slowHeadersTrickleTheHeadOverTheDelayThenTheBody() {
        let request = FakeRequest("/users/1?__fault=slow-headers&__delay=1000")
        var life = RequestLifecycle()
        var written: [UInt8] = []
        var action = start(request, &life)
        var now = request.startNs
        var pieces = 0
        while case .writeRaw(let bytes, let next) = action {
            written += bytes
            pieces += 1
            guard case .suspend(let until) = next else { break }
            #expect(until > now && until - now == 100 * Self.ms)
            now = until
            action = life.resumed(request, catalog: catalog, env: env, now: now, stopping: false, clientGone: false)
        }
        #expect(pieces == 10 && now == request.startNs + 900 * Self.ms)
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n") && text.hasSuffix("\r\n\r\n" + #"{"id": 1}"#), "\(text)")
        // The client read the whole head: its status is journaled; one that left mid-head is 0.
        #expect(journal.first?.fault == .slowHeaders && journal.first?.status == 200)
    }

    @Test func slowHeadersStopWhenTheClientLeavesAndBecomeADelayInsideTLS() {
        let request = FakeRequest("/users/1?__fault=slow-headers&__delay=1000")
        var life = RequestLifecycle()
        guard case .writeRaw(_, .suspend) = start(request, &life) else { Issue.record("no first piece"); return }
        guard case .close = resume(request, &life, atMs: 100, gone: true) else { Issue.record("not closed"); return }
        #expect(journal.first?.clientGone == true && journal.first?.fault == .slowHeaders && journal.first?.status == 0)
        let secure = FakeRequest("/users/1?__fault=slow-headers&__delay=400", secure: true)
        var tls = RequestLifecycle()
        guard case .suspend(let until) = start(secure, &tls) else { Issue.record("no wait"); return }
        #expect(until == secure.startNs + 400 * Self.ms)
        let answered = resume(secure, &tls, atMs: 400)
        guard case .respond(200, .prepared) = answered else { Issue.record("no answer: \(answered)"); return }
        #expect(journal.last?.fault == .slowHeaders && journal.last?.status == 200)
    }
}
