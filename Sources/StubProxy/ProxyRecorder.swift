#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch
import StubCapture
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes what passes through the proxy as stubs, with the import's grouping, naming and
/// redaction, at a constant cost per exchange: each response body is processed once and kept in
/// a hidden spool folder as it arrives (see `CaptureSpool`), and the small parts of each exchange
/// stay in memory. The stub tree follows within a quarter second: each host's service folder is
/// rebuilt from those parts, its bodies linked from the spool, and swapped in whole, so a reader
/// (or a live reload) never sees it half-written. Each host gets a service folder of its own,
/// named after the host (with `-2`, `-3` when that folder exists and is not this recorder's).
package final class ProxyRecorder: @unchecked Sendable {
    // @unchecked: `state` (and the spool inside it) is only touched under its lock; the flush
    // runs on one serial queue and works on copies taken under the lock.
    let writer: StubTreeWriter
    let policy: SecretPolicy
    private let state: Locked<State>
    private let log: @Sendable (String) -> Void
    private let flushes = DispatchQueue(label: "stubd.recorder")

    /// How long the stub tree may lag the exchanges: edits within it are written together.
    static let flushDelayMs = 250

    private struct State {
        let spool: CaptureSpool
        var exchanges: [String: [CapturedExchange]] = [:]
        var names: [String: String] = [:]
        var dirty = Set<String>()
        var flushScheduled = false
    }

    /// A recorder writing into `root`; `log` gets one line per failed write.
    package init(root: String, policy: SecretPolicy = SecretPolicy(), log: @escaping @Sendable (String) -> Void) {
        writer = StubTreeWriter(root: root)
        self.policy = policy
        self.log = log
        state = Locked(State(spool: CaptureSpool(folder: root + "/.stubd-recording-\(getpid())", policy: policy)))
    }

    /// Keeps an exchange (its body goes to the spool now) and schedules its host's folder to be
    /// written.
    package func record(_ exchange: CapturedExchange) {
        let schedule = state.withLock { s -> Bool in
            do {
                let kept = try s.spool.spool(exchange)
                if s.names[kept.host] == nil { s.names[kept.host] = freshName(for: kept.host, taken: Set(s.names.values)) }
                s.exchanges[kept.host, default: []].append(kept)
                s.dirty.insert(kept.host)
            } catch {
                log("stubd: recording \(exchange.method) \(exchange.path) failed: \(error)")
                return false
            }
            defer { s.flushScheduled = true }
            return !s.flushScheduled
        }
        if schedule { flushes.asyncAfter(deadline: .now() + .milliseconds(ProxyRecorder.flushDelayMs)) { self.flush() } }
    }

    /// Writes every host folder with changes now and deletes the spool; call when recording ends.
    package func finish() {
        flushes.sync { flush() }
        state.withLock { $0.spool.remove() }
    }

    /// Everything recorded, as one layout (for the closing report).
    package var layout: CaptureLayout {
        let (hosts, names, report) = state.withLock { ($0.exchanges, $0.names, $0.spool.report) }
        var services: [CaptureLayout.Service] = []
        for (host, name) in names.sorted(by: { $0.value < $1.value }) {
            services += ProxyRecorder.build(hosts[host] ?? [], name: name, policy: policy).services
        }
        return CaptureLayout(services: services, redactions: report)
    }

    /// Rebuilds and swaps in the folder of each host with new exchanges.
    private func flush() {
        let work = state.withLock { s -> [(name: String, exchanges: [CapturedExchange])] in
            s.flushScheduled = false
            defer { s.dirty = [] }
            return s.dirty.sorted().compactMap { host in s.names[host].map { ($0, s.exchanges[host] ?? []) } }
        }
        for (name, exchanges) in work {
            let layout = ProxyRecorder.build(exchanges, name: name, policy: policy)
            guard let service = layout.services.first else { continue }
            do { try writer.replace(service, of: layout) } catch { log("stubd: recording into \(name) failed: \(error)") }
        }
    }

    private static func build(_ exchanges: [CapturedExchange], name: String, policy: SecretPolicy) -> CaptureLayout {
        var options = CaptureLayout.Options()
        options.service = name
        return CaptureLayout.build(exchanges, options: options, policy: policy)
    }

    private func freshName(for host: String, taken: Set<String>) -> String {
        let base = CaptureLayout.serviceName(host: host)
        var name = base
        var n = 2
        while taken.contains(name) || writer.exists(name) { name = "\(base)-\(n)"; n += 1 }
        return name
    }
}
