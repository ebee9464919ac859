#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// The admin API's requests: one place that adds the session, the token and the JSON body
/// (`json` as a dictionary, or `body` already encoded: an array, an `Encodable`'s bytes).
extension StubdClient {
    func call<T: Decodable>(_ method: String, _ endpoint: String, query: [(String, String)] = [], json: [String: Any]? = nil,
                            body: Data? = nil, session: String? = nil, as type: T.Type) async throws -> T {
        let data = try await request(method, endpoint, query: query, json: json, body: body, session: session)
        return try JSONDecoder().decode(T.self, from: data)
    }

    func send(_ method: String, _ endpoint: String, json: [String: Any]? = nil, body: Data? = nil, session: String? = nil) async throws {
        _ = try await request(method, endpoint, query: [], json: json, body: body, session: session)
    }

    func request(_ method: String, _ endpoint: String, query: [(String, String)], json: [String: Any]?, body: Data? = nil,
                 session: String?) async throws -> Data {
        var components = URLComponents(url: baseURL.appendingPathComponent("__stubd/" + endpoint), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) } }
        var request = URLRequest(url: components.url!)
        request.httpMethod = method
        if let scope = session ?? self.session { request.setValue(scope, forHTTPHeaderField: "X-Stub-Session") }
        if let token = tokenForRequests { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let payload = try json.map({ try JSONSerialization.data(withJSONObject: $0) }) ?? body {
            request.httpBody = payload
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let (data, response) = try await urlSession.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else { throw StubdClientError.status(status, String(decoding: data, as: UTF8.self)) }
        return data
    }
}
