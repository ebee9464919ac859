#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation

/// HTTP methods the example APIs use.
public enum HTTPMethod: String, Sendable {
    /// GET, POST, PUT, PATCH and DELETE.
    case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
}

/// How a request carries its parameters, like Moya's `Task`.
public enum RequestTask: Sendable {
    /// No parameters.
    case plain
    /// Query parameters, in order (`URLComponents` percent-encodes them).
    case query([(String, String)])
    /// A JSON body from an `Encodable` value.
    case json(any Encodable & Sendable)
    /// An `application/x-www-form-urlencoded` body, the way Slack clients post.
    case form([(String, String)])
}

/// One endpoint of an API, in the shape of Moya's `TargetType`: an enum per API conforms, one
/// case per endpoint.
public protocol TargetType: Sendable {
    /// The API's base URL; tests point it at stubd.
    var baseURL: URL { get }
    /// The endpoint's path under `baseURL`.
    var path: String { get }
    /// The HTTP method.
    var method: HTTPMethod { get }
    /// The parameters and how they are encoded.
    var task: RequestTask { get }
    /// Headers for this endpoint.
    var headers: [String: String] { get }
    /// Whether response keys are snake_case (decoded with `convertFromSnakeCase`).
    var usesSnakeCase: Bool { get }
    /// The typed error for a response this API considers failed, or nil when it succeeded.
    func error(status: Int, body: Data) -> (any Error)?
}

extension TargetType {
    /// No extra headers.
    public var headers: [String: String] { [:] }
    /// camelCase keys.
    public var usesSnakeCase: Bool { false }
}
