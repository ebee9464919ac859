import Foundation
import StubContract
import StubProxy
import StubServer

/// The optional parts the CLI attaches (`--proxy-unmatched`, `--openapi`), attached the same way
/// for in-process servers in the tests.
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

    /// Checks requests against the OpenAPI document at `spec`, refusing violations when `enforces`.
    mutating func check(against spec: URL, enforces: Bool = false) {
        do {
            contract = ContractChecker(document: try OpenAPIDocument(path: spec.path), enforces: enforces)
        } catch {
            fatalError("cannot read \(spec.path): \(error.description)")
        }
    }
}
