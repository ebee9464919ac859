import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StubCapture
import StubCore

/// Sends a request no stub matched to the real API and returns its answer unchanged (redirects
/// are passed back, not followed; bodies arrive decoded, so `Content-Encoding` is dropped). An
/// upstream that cannot be reached, times out or fails TLS gives a 502 naming it and the error.
/// When a recorder is set, each exchange is also written as stubs.
package final class UpstreamForwarder: UnmatchedRequestHandler, Sendable {
    /// The upstream's base URL; a request's path is appended to its path.
    package let upstream: URL
    let session: URLSession
    let recorder: ProxyRecorder?

    /// Headers that belong to one connection, or that URLSession sets itself.
    static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade",
                                        "proxy-authorization", "proxy-authenticate", "host", "content-length", "accept-encoding"]

    /// A forwarder to `upstream`, waiting `timeout` seconds for an answer.
    package init(upstream: URL, timeout: TimeInterval = 30, recorder: ProxyRecorder? = nil) {
        self.upstream = upstream
        self.recorder = recorder
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration, delegate: NoRedirects(), delegateQueue: nil)
    }

    package func reply(to request: StubRequest) -> Reply {
        guard let url = target(for: request) else {
            return .error(502, "upstream request failed", [("upstream", .string(upstream.absoluteString)), ("detail", .string("cannot build a URL for \(request.path)"))])
        }
        var call = URLRequest(url: url)
        call.httpMethod = request.method
        for (name, value) in request.headers where !UpstreamForwarder.hopByHop.contains(name.lowercased()) && !ControlNames.isControlHeader(name) {
            call.addValue(value, forHTTPHeaderField: name)
        }
        if !request.body.isEmpty { call.httpBody = Data(request.body) }
        let outcome = send(call)
        guard case .success(let (data, response)) = outcome else {
            guard case .failure(let error) = outcome else { fatalError("unreachable") }
            return .error(502, "upstream request failed", [
                ("upstream", .string(upstream.absoluteString)), ("url", .string(url.absoluteString)),
                ("detail", .string(error.localizedDescription)), ("code", .number(Double((error as? URLError)?.code.rawValue ?? -1))),
            ])
        }
        var headers: [HTTPHeader] = []
        for (key, value) in response.allHeaderFields {
            let name = "\(key)"
            guard !UpstreamForwarder.hopByHop.contains(name.lowercased()), name.lowercased() != "content-encoding" else { continue }
            headers.append(HTTPHeader(name, "\(value)"))
        }
        let reply = Reply(status: response.statusCode, headers: headers, body: Array(data))
        recorder?.record(exchange(request, url: url, reply: reply))
        return reply
    }

    /// The upstream URL for a request: the upstream's path, then the request's, then its query.
    func target(for request: StubRequest) -> URL? {
        var base = upstream.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        var text = base + (request.path.hasPrefix("/") ? request.path : "/" + request.path)
        if !request.query.isEmpty {
            var allowed = CharacterSet.urlQueryAllowed
            allowed.remove(charactersIn: "&=+?#")
            let encode = { (s: String) in s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s }
            text += "?" + request.query.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
        }
        return URL(string: text)
    }

    func send(_ request: URLRequest) -> Result<(Data, HTTPURLResponse), Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        session.dataTask(with: request) { data, response, error in
            if let error { box.result = .failure(error) } else if let http = response as? HTTPURLResponse {
                box.result = .success((data ?? Data(), http))
            } else {
                box.result = .failure(URLError(.badServerResponse))
            }
            done.signal()
        }.resume()
        done.wait()
        return box.result ?? .failure(URLError(.unknown))
    }

    func exchange(_ request: StubRequest, url: URL, reply: Reply) -> CapturedExchange {
        let host = url.port.map { "\(url.host ?? ""):\($0)" } ?? (url.host ?? "")
        let mime = reply.headers.first { $0.name.lowercased() == "content-type" }?.value
        return CapturedExchange(method: request.method, scheme: url.scheme ?? "http", host: host, path: url.path.isEmpty ? "/" : url.path,
                                query: request.query, requestHeaders: request.headers, requestBody: request.body, status: reply.status,
                                responseHeaders: reply.headers.map { ($0.name, $0.value) }, responseBody: reply.body, mimeType: mime)
    }
}

/// Where the completion handler leaves its result for the waiting thread.
private final class ResultBox: @unchecked Sendable {
    // @unchecked: written once by the completion handler before the semaphore is signalled, read
    // after the wait returns; the semaphore orders the two.
    var result: Result<(Data, HTTPURLResponse), Error>?
}

/// Passes redirects back to the client instead of following them, as a proxy must.
private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}
