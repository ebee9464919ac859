import Foundation
import StubCapture
import StubCore

/// Writes what passes through the proxy as stubs, with the import's grouping, naming and
/// redaction. Each host gets a service folder of its own, named after the host (with `-2`, `-3`
/// when that folder already exists and is not this recorder's); after each exchange that folder
/// is rebuilt from every exchange recorded for the host and swapped in whole, so a reader (or a
/// live reload) never sees it half-written.
package final class ProxyRecorder: Sendable {
    let writer: StubTreeWriter
    let policy: SecretPolicy
    private let state = Locked(State())
    private let log: @Sendable (String) -> Void

    private struct State {
        var exchanges: [CapturedExchange] = []
        var names: [String: String] = [:]
    }

    /// A recorder writing into `root`; `log` gets one line per failed write.
    package init(root: String, policy: SecretPolicy = SecretPolicy(), log: @escaping @Sendable (String) -> Void) {
        writer = StubTreeWriter(root: root)
        self.policy = policy
        self.log = log
    }

    /// Adds an exchange and rewrites its host's service folder.
    package func record(_ exchange: CapturedExchange) {
        state.withLock { s in
            s.exchanges.append(exchange)
            let name = s.names[exchange.host] ?? freshName(for: exchange.host, taken: Set(s.names.values))
            s.names[exchange.host] = name
            var options = CaptureLayout.Options()
            options.service = name
            let layout = CaptureLayout.build(s.exchanges.filter { $0.host == exchange.host }, options: options, policy: policy)
            guard let service = layout.services.first else { return }
            do { try writer.replace(service, of: layout) } catch { log("stubd: recording \(exchange.method) \(exchange.path) failed: \(error)") }
        }
    }

    /// Everything recorded, as one layout (for the closing report).
    package var layout: CaptureLayout {
        state.withLock { s in
            var services: [CaptureLayout.Service] = []
            var report = RedactionReport()
            for (host, name) in s.names.sorted(by: { $0.value < $1.value }) {
                var options = CaptureLayout.Options()
                options.service = name
                let one = CaptureLayout.build(s.exchanges.filter { $0.host == host }, options: options, policy: policy)
                services += one.services
                report.merge(one.redactions)
            }
            return CaptureLayout(services: services, redactions: report)
        }
    }

    private func freshName(for host: String, taken: Set<String>) -> String {
        let base = CaptureLayout.serviceName(host: host)
        var name = base
        var n = 2
        while taken.contains(name) || writer.exists(name) { name = "\(base)-\(n)"; n += 1 }
        return name
    }
}
