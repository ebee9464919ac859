#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubContract
import StubCore
import StubFleet
import StubProxy
import StubServer
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The optional parts a server is given when the options ask for them: the API contract
/// (StubContract), the proxy with its recorder (StubProxy) and the fleet's store (StubFleet).
/// The server itself links none of them.
extension ServeOptions {
    /// Why an optional part cannot start, in words for people.
    struct AttachError: Error {
        let message: String
    }

    /// Reads the contract and starts the proxy the options ask for, and hands them to
    /// `configuration`; returns the proxy, whose recorder holds what was written.
    @discardableResult
    func attach(to configuration: inout StubServerConfiguration) throws(AttachError) -> UpstreamForwarder? {
        if let state {
            do {
                configuration.sharedState = try SharedStateStore.redis(state, passwordFile: statePasswordFile?.path,
                                                                       authorities: stateAuthorities?.path, replica: replica)
            } catch {
                throw AttachError(message: "cannot use --state: \(error.description)")
            }
        }
        if let spec = openAPI {
            do {
                let document = try OpenAPIDocument(path: spec.path, specRoot: openAPIRoot?.path)
                configuration.contract = ContractChecker(document: document, enforces: openAPIEnforce)
            } catch {
                throw AttachError(message: "cannot check requests against the OpenAPI document: \(error.description)")
            }
        }
        guard let upstream = proxyUnmatched else { return nil }
        let recorder = recordInto.map { ProxyRecorder(root: $0.path, log: { StandardStreams.write($0 + "\n", to: STDERR_FILENO) }) }
        do {
            let forwarder = try UpstreamForwarder(upstream: upstream, timeout: proxyTimeoutSeconds, authorities: proxyAuthorities?.path,
                                                  recorder: recorder)
            configuration.unmatched = forwarder
            return forwarder
        } catch {
            throw AttachError(message: "cannot proxy unmatched requests: \(error.detail)")
        }
    }
}
