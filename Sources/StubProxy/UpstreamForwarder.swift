#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCapture
import StubCore

/// Sends a request no stub matched to the real API and hands its answer back unchanged
/// (redirects are passed back, not followed; bodies are
/// asked for unencoded). No thread waits for an upstream: one `UpstreamClient` thread drives
/// every call, up to `UpstreamClient.maxConnectionsPerHost` at once per origin. An upstream that
/// cannot be reached, times out, fails TLS or answers with a body over `maxBodyBytes` gives a
/// 502 naming it, the error and its `URLError.Code` number. When a recorder is set, each
/// exchange is also written as stubs.
package final class UpstreamForwarder: UnmatchedRequestHandler, Sendable {
    /// The upstream's base URL; a request's path is appended to its path.
    package let upstream: URL
    package let recorder: ProxyRecorder?
    private let origin: UpstreamOrigin
    private let client: UpstreamClient
    private let timeoutMs: Int
    private let maxBodyBytes: Int

    /// Headers that belong to one connection, or that the client sets itself.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
                                        "proxy-authorization", "proxy-authenticate", "host", "content-length", "accept-encoding", "expect"]

    /// A forwarder to `upstream`, waiting `timeout` seconds for an answer and taking bodies of at
    /// most `maxBodyBytes`. An `https` upstream's certificate is checked against the system's
    /// authorities and those in the PEM file `authorities`. Throws when the URL is not `http` or
    /// `https`, the authorities cannot be read, or the client's thread cannot start.
    package init(upstream: URL, timeout: Double = 30, maxBodyBytes: Int = 64 << 20, authorities: String? = nil,
                 recorder: ProxyRecorder? = nil) throws(UpstreamFailure) {
        origin = try UpstreamOrigin(upstream)
        client = try UpstreamClient(trust: origin.secure || authorities != nil ? UpstreamTrust(extraAuthorities: authorities) : nil)
        self.upstream = upstream
        self.recorder = recorder
        timeoutMs = max(1, Int((timeout * 1000).rounded()))
        self.maxBodyBytes = maxBodyBytes
    }

    /// Ends every call still waiting (each answers 502), stops the client's thread, and has the
    /// recorder write every exchange answered so far.
    package func stop() {
        client.stop()
        recorder?.finish()
    }

    package func reply(to request: StubRequest, done: @escaping @Sendable (Reply) -> Void) {
        let path = target(for: request)
        let text = origin.text + path
        let headers = request.headers.filter { !UpstreamForwarder.hopByHop.contains($0.name.lowercased()) && !ControlNames.isControlHeader($0.name) }
        let call = UpstreamRequest(method: request.method, target: path, headers: headers.map { ($0.name, $0.value) }, body: request.body, timeoutMs: timeoutMs)
        let upstream = self.upstream
        let recorder = self.recorder
        let origin = self.origin
        client.send(call, to: origin, maxBodyBytes: maxBodyBytes) { outcome in
            switch outcome {
            case .failure(let failure):
                done(.error(502, "upstream request failed", [
                    ("upstream", .string(upstream.absoluteString)), ("url", .string(text)),
                    ("detail", .string(failure.detail)), ("code", .number(Double(failure.code))),
                ]))
            case .success(let answer):
                let headers = answer.headers.filter {
                    !UpstreamForwarder.hopByHop.contains($0.name.lowercased())
                }
                let reply = Reply(status: answer.status, headers: headers.map { HTTPHeader($0.name, $0.value) }, body: answer.body)
                recorder?.record(UpstreamForwarder.exchange(request, origin: origin, path: path, reply: reply))
                done(reply)
            }
        }
    }

    /// The path and query to ask the upstream for: the upstream's path, then the request's with
    /// its dot segments resolved first (so `/../../x` stays under the upstream's path), then its query.
    func target(for request: StubRequest) -> String {
        var text = origin.basePath + UpstreamForwarder.escapedPath(UpstreamForwarder.withoutDotSegments(request.path))
        if !request.query.isEmpty {
            text += "?" + request.query.map { $0.name.percentEncodedComponent() + "=" + $0.value.percentEncodedComponent() }.joined(separator: "&")
        }
        return text
    }

    /// `path` with the bytes a URL path may not hold as they are (spaces, controls, non-ASCII,
    /// `"<>\^`{|}`, `?` and `#`) written as `%XX`; existing escapes stay.
    static func escapedPath(_ path: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for b in path.utf8 {
            if b > 0x20 && b < 0x7F && !"\"<>\\^`{|}?#".utf8.contains(b) {
                out.append(b)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(b >> 4)], hex[Int(b & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `path` with `.` and `..` segments (also written `%2e`) resolved, never above `/`.
    static func withoutDotSegments(_ path: String) -> String {
        var kept: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        for (i, segment) in segments.enumerated() {
            switch segment.lowercased().replacing("%2e", with: ".") {
            case ".": if i == segments.count - 1 { kept.append("") }
            case "..":
                if !kept.isEmpty { kept.removeLast() }
                if i == segments.count - 1 { kept.append("") }
            default: kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/")
    }

    /// The exchange as a capture: the upstream's origin, the path asked for (without its query,
    /// which the capture keeps decoded), and the answer.
    static func exchange(_ request: StubRequest, origin: UpstreamOrigin, path: String, reply: Reply) -> CapturedExchange {
        let mime = reply.headers.first { $0.name.lowercased() == "content-type" }?.value
        let pathOnly = String(path.prefix { $0 != "?" })
        return CapturedExchange(method: request.method, scheme: origin.secure ? "https" : "http", host: origin.hostHeader,
                                path: pathOnly.percentDecoded() ?? pathOnly,
                                query: request.query, requestHeaders: request.headers, requestBody: request.body, status: reply.status,
                                responseHeaders: reply.headers.map { ($0.name, $0.value) }, responseBody: reply.body, mimeType: mime)
    }
}
