import Foundation
import StubProxy
import StubServer

/// `--proxy-unmatched` as the CLI attaches it, for in-process servers in the tests.
extension StubServerConfiguration {
    /// Proxies unmatched requests to `upstream`, recording the exchanges into `recordInto` when given.
    mutating func proxy(to upstream: URL, timeout: Double = 30, maxBodyBytes: Int = 64 << 20, authorities: URL? = nil, recordInto: URL? = nil) {
        let recorder = recordInto.map { ProxyRecorder(root: $0.path, log: { print($0) }) }
        do {
            unmatched = try UpstreamForwarder(upstream: upstream, timeout: timeout, maxBodyBytes: maxBodyBytes, authorities: authorities?.path,
                                              recorder: recorder)
        } catch {
            fatalError("the proxy cannot start: \(error)")
        }
    }
}
