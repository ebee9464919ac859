#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// Sends `TargetType` requests and decodes their answers: the one generic entry point an app's
/// networking layer has, like `MoyaProvider.request` with a decoding step.
public final class APIClient: Sendable {
    /// The session requests go through.
    public let session: URLSession
    /// Plugins, applied in order to every request.
    public let plugins: [any RequestPlugin]
    /// The request timeout (`URLRequest.timeoutInterval`).
    public let timeout: TimeInterval
    /// How often a failed request is retried, and on what.
    public let retry: RetryPolicy
    /// The server every API is sent to instead of its own host (scheme, host and port), as an
    /// app reads it from its environment; nil sends each API to its real host.
    public let server: URL?

    /// A client; the default session has no cache, as tests want, and uses `timeout`.
    public init(server: URL? = nil, session: URLSession? = nil, plugins: [any RequestPlugin] = [],
                timeout: TimeInterval = 10, retry: RetryPolicy = .none) {
        self.server = server
        self.session = session ?? APIClient.makeSession(timeout: timeout)
        self.plugins = plugins
        self.timeout = timeout
        self.retry = retry
    }

    /// An ephemeral session without a cache. The timeout goes on the configuration as well as on
    /// each request: swift-corelibs-foundation on Linux waited for the configuration's 60 s
    /// default although the request asked for 1 s.
    public static func makeSession(timeout: TimeInterval = 10) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        return URLSession(configuration: configuration)
    }

    /// Sends `target`, retries as `retry` says, checks the status and the API's error envelope,
    /// and decodes the body as `T`.
    public func request<T: Decodable>(_ target: some TargetType, as type: T.Type = T.self) async throws -> T {
        let (data, response) = try await send(target)
        if let error = target.error(status: response.statusCode, body: data) { throw error }
        let decoder = JSONDecoder()
        if target.usesSnakeCase { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(T.self, from: data)
        } catch {
            throw APIError.undecodable(status: response.statusCode, underlying: String(describing: error))
        }
    }

    /// The raw answer to `target` after retries, for callers that want headers too.
    public func send(_ target: some TargetType) async throws -> (Data, HTTPURLResponse) {
        var request = try RequestBuilder.request(for: target, server: server, timeout: timeout)
        for plugin in plugins { request = plugin.prepare(request, target: target) }
        var attempt = 0
        while true {
            attempt += 1
            do {
                let (data, response) = try await session.data(for: request)
                guard let http = response as? HTTPURLResponse else { throw APIError.notHTTP }
                if attempt <= retry.retries, retry.shouldRetry(status: http.statusCode) {
                    try await retry.wait()
                    continue
                }
                return (data, http)
            } catch let error as URLError where attempt <= retry.retries && retry.shouldRetry(error.code) {
                try await retry.wait()
            }
        }
    }
}

/// Failures that are not the API's own error answers.
public enum APIError: Error, Equatable {
    /// The response was not HTTP.
    case notHTTP
    /// A success status whose body did not decode as expected.
    case undecodable(status: Int, underlying: String)
    /// A failure status without a recognizable error envelope.
    case status(Int)
}
