#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Turns a `TargetType` into a `URLRequest`: the one place parameters are encoded.
enum RequestBuilder {
    /// The request for `target`; `server` replaces the scheme, host and port of the target's base
    /// URL (the API's own path prefix stays), which is how tests point a client at stubd; a path
    /// on `server` (a stubd session's `/__session/<id>`) goes before the API's path.
    static func request(for target: some TargetType, server: URL?, timeout: TimeInterval) throws -> URLRequest {
        var components = URLComponents(url: target.baseURL.appendingPathComponent(target.path), resolvingAgainstBaseURL: false)!
        if let server, let replacement = URLComponents(url: server, resolvingAgainstBaseURL: false) {
            components.scheme = replacement.scheme
            components.host = replacement.host
            components.port = replacement.port
            let prefix = replacement.path.hasSuffix("/") ? String(replacement.path.dropLast()) : replacement.path
            components.path = prefix + components.path
        }
        var body: Data?
        var contentType: String?
        switch target.task {
        case .plain:
            break
        case .query(let items):
            components.queryItems = items.map { URLQueryItem(name: $0.0, value: $0.1) }
            // URLComponents leaves '+' alone, which servers read as a space.
            components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        case .json(let value):
            body = try JSONEncoder().encode(value)
            contentType = "application/json"
        case .form(let fields):
            body = Data(fields.map { "\(formEncode($0.0))=\(formEncode($0.1))" }.joined(separator: "&").utf8)
            contentType = "application/x-www-form-urlencoded"
        }
        var request = URLRequest(url: components.url!, timeoutInterval: timeout)
        request.httpMethod = target.method.rawValue
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        for (name, value) in target.headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// Form encoding: unreserved characters as they are, space as '+', the rest percent-encoded.
    static func formEncode(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~ ")
        return (text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text).replacingOccurrences(of: " ", with: "+")
    }
}
