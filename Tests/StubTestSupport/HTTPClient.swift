import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a client got back: a response, or the URLError a real client would see.
package struct Fetched: Sendable {
    package var status: Int
    package var headers: [String: String]
    package var body: Data

    package init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package var text: String { String(decoding: body, as: UTF8.self) }

    package func header(_ name: String) -> String? {
        headers.first { $0.key.lowercased() == name.lowercased() }?.value
    }

    package func json() throws -> Any { try JSONSerialization.jsonObject(with: body) }
}

/// URLSession the way an app's API client uses it, with no cache and a short timeout.
package enum HTTPClient {
    /// One session for the whole test run, as an app has one: FoundationNetworking sessions are
    /// costly to create and are never freed unless invalidated.
    package static let shared = session(timeout: 30)

    package static func session(timeout: TimeInterval = 10) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 512
        return URLSession(configuration: configuration)
    }

    package static func fetch(_ url: URL, method: String = "GET", headers: [String: String] = [:], body: Data? = nil,
                      timeout: TimeInterval = 10, session: URLSession? = nil) async throws -> Fetched {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.timeoutInterval = timeout
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        request.httpBody = body
        let s = session ?? HTTPClient.shared
        let (data, response) = try await s.data(for: request)
        let http = response as! HTTPURLResponse
        var fields: [String: String] = [:]
        for (k, v) in http.allHeaderFields { fields["\(k)"] = "\(v)" }
        return Fetched(status: http.statusCode, headers: fields, body: data)
    }

    /// The URLError code a request ends with, or nil if it got a response.
    package static func errorCode(_ url: URL, headers: [String: String] = [:], timeout: TimeInterval = 10) async -> URLError.Code? {
        do {
            _ = try await fetch(url, headers: headers, timeout: timeout)
            return nil
        } catch let error as URLError {
            return error.code
        } catch {
            Issue.record("expected a URLError, got \(error)")
            return nil
        }
    }
}
