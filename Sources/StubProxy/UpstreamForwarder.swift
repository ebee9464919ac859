import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubCapture
import StubCore

/// Sends a request no stub matched to the real API and hands its answer back unchanged
/// (redirects are passed back, not followed; bodies arrive decoded, so `Content-Encoding` is
/// dropped). No thread waits for an upstream: URLSession calls back when the answer is in, up to
/// `maxConnectionsPerHost` calls at once. An upstream that cannot be reached, times out, fails
/// TLS or answers with a body over `maxBodyBytes` gives a 502 naming it and the error. When a
/// recorder is set, each exchange is also written as stubs.
package final class UpstreamForwarder: UnmatchedRequestHandler, Sendable {
    /// The upstream's base URL; a request's path is appended to its path.
    package let upstream: URL
    let session: URLSession
    let recorder: ProxyRecorder?
    private let calls: UpstreamCalls

    /// Headers that belong to one connection, or that URLSession sets itself.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
                                        "proxy-authorization", "proxy-authenticate", "host", "content-length", "accept-encoding"]

    /// Calls to the upstream at once (URLSession's own default is 6 per host).
    static let maxConnectionsPerHost = 256

    /// A forwarder to `upstream`, waiting `timeout` seconds for an answer and taking bodies of at
    /// most `maxBodyBytes`.
    package init(upstream: URL, timeout: TimeInterval = 30, maxBodyBytes: Int = 64 << 20, recorder: ProxyRecorder? = nil) {
        self.upstream = upstream
        self.recorder = recorder
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpMaximumConnectionsPerHost = UpstreamForwarder.maxConnectionsPerHost
        calls = UpstreamCalls(maxBodyBytes: maxBodyBytes)
        session = URLSession(configuration: configuration, delegate: calls, delegateQueue: nil)
    }

    package func reply(to request: StubRequest, done: @escaping @Sendable (Reply) -> Void) {
        guard let url = target(for: request) else {
            done(.error(502, "upstream request failed", [("upstream", .string(upstream.absoluteString)), ("detail", .string("cannot build a URL for \(request.path)"))]))
            return
        }
        var call = URLRequest(url: url)
        call.httpMethod = request.method
        for (name, value) in request.headers where !UpstreamForwarder.hopByHop.contains(name.lowercased()) && !ControlNames.isControlHeader(name) {
            call.addValue(value, forHTTPHeaderField: name)
        }
        if !request.body.isEmpty { call.httpBody = Data(request.body) }
        let upstream = self.upstream
        let recorder = self.recorder
        calls.start(session.dataTask(with: call)) { outcome in
            switch outcome {
            case .failure(let error):
                done(.error(502, "upstream request failed", [
                    ("upstream", .string(upstream.absoluteString)), ("url", .string(url.absoluteString)),
                    ("detail", .string(error.localizedDescription)), ("code", .number(Double((error as? URLError)?.code.rawValue ?? -1))),
                ]))
            case .success(let (data, response)):
                var headers: [HTTPHeader] = []
                for (key, value) in response.allHeaderFields {
                    let name = "\(key)"
                    guard !UpstreamForwarder.hopByHop.contains(name.lowercased()), name.lowercased() != "content-encoding" else { continue }
                    headers.append(HTTPHeader(name, "\(value)"))
                }
                let reply = Reply(status: response.statusCode, headers: headers, body: Array(data))
                recorder?.record(UpstreamForwarder.exchange(request, url: url, reply: reply))
                done(reply)
            }
        }
    }

    /// The upstream URL for a request: the upstream's path, then the request's with its dot
    /// segments resolved first (so `/../../x` stays under the upstream's path), then its query.
    func target(for request: StubRequest) -> URL? {
        var base = upstream.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var text = base + UpstreamForwarder.withoutDotSegments(request.path)
        if !request.query.isEmpty {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+?#")
            let encode = { (s: String) in s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s }
            text += "?" + request.query.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
        }
        return URL(string: text)
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

    static func exchange(_ request: StubRequest, url: URL, reply: Reply) -> CapturedExchange {
        let host = url.port.map { "\(url.host ?? ""):\($0)" } ?? (url.host ?? "")
        let mime = reply.headers.first { $0.name.lowercased() == "content-type" }?.value
        return CapturedExchange(method: request.method, scheme: url.scheme ?? "http", host: host, path: url.path.isEmpty ? "/" : url.path,
                                query: request.query, requestHeaders: request.headers, requestBody: request.body, status: reply.status,
                                responseHeaders: reply.headers.map { ($0.name, $0.value) }, responseBody: reply.body, mimeType: mime)
    }
}
