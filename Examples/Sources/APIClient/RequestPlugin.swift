#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Changes a request before it is sent, in the shape of Moya's `PluginType.prepare(_:target:)`.
public protocol RequestPlugin: Sendable {
    /// The request to send instead of `request`.
    func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest
}

/// The plugin a test adds to steer stubd per request: a variant, a delay or a session
/// (`X-Stub-Variant`, `X-Stub-Delay`, `X-Stub-Session`, `X-Stub-Fault`). Production code never adds it.
public struct StubControlPlugin: RequestPlugin {
    /// The variant to serve, by name (`"401"`, `"200-empty"`); nil leaves the choice to stubd.
    public var variant: String?
    /// Milliseconds stubd waits before answering.
    public var delayMs: Int?
    /// The session that scopes overrides, sequences and the journal to one test.
    public var session: String?
    /// A network failure instead of the response (`reset`, `empty`, `garbage`, `truncate`, `hang`).
    public var fault: String?

    /// A plugin with the given controls.
    public init(variant: String? = nil, delayMs: Int? = nil, session: String? = nil, fault: String? = nil) {
        self.variant = variant
        self.delayMs = delayMs
        self.session = session
        self.fault = fault
    }

    /// Adds the control headers that are set.
    public func prepare(_ request: URLRequest, target: any TargetType) -> URLRequest {
        var request = request
        if let variant { request.setValue(variant, forHTTPHeaderField: "X-Stub-Variant") }
        if let delayMs { request.setValue(String(delayMs), forHTTPHeaderField: "X-Stub-Delay") }
        if let session { request.setValue(session, forHTTPHeaderField: "X-Stub-Session") }
        if let fault { request.setValue(fault, forHTTPHeaderField: "X-Stub-Fault") }
        return request
    }
}
