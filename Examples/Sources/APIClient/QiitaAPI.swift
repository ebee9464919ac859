import Foundation

/// Qiita-style paged items (Stubs/qiita): a bare JSON array, snake_case keys, the total in a
/// `Total-Count` header, and a 403 with `{"message", "type"}` when rate limited.
public enum QiitaAPI: TargetType {
    /// `GET /items?page=&per_page=`: one page of items.
    case items(page: Int, perPage: Int)

    /// Qiita's production root.
    public var baseURL: URL { URL(string: "https://qiita.com/api/v2")! }
    /// The items list.
    public var path: String { "items" }
    /// Always GET.
    public var method: HTTPMethod { .get }

    /// The page and its size as query parameters.
    public var task: RequestTask {
        switch self {
        case .items(let page, let perPage): return .query([("page", String(page)), ("per_page", String(perPage))])
        }
    }

    /// Qiita's keys are snake_case.
    public var usesSnakeCase: Bool { true }

    /// A non-2xx answer with `{"message", "type"}`.
    public func error(status: Int, body: Data) -> (any Error)? {
        guard !(200..<300).contains(status) else { return nil }
        guard let answer = try? JSONDecoder().decode(QiitaError.Body.self, from: body) else { return APIError.status(status) }
        return QiitaError(status: status, type: answer.type, message: answer.message)
    }
}

/// Qiita's error answer.
public struct QiitaError: Error, Equatable {
    /// The HTTP status (403 when rate limited).
    public let status: Int
    /// Qiita's error type (`rate_limit_exceeded`).
    public let type: String
    /// Qiita's message.
    public let message: String

    /// An error as Qiita states it.
    public init(status: Int, type: String, message: String) {
        self.status = status
        self.type = type
        self.message = message
    }

    struct Body: Decodable {
        let message: String
        let type: String
    }
}

/// One item of the list.
public struct Item: Decodable, Sendable {
    /// The item's id.
    public let id: String
    /// Its title.
    public let title: String
    /// Likes so far (`likes_count`).
    public let likesCount: Int
    /// When it was posted (`created_at`).
    public let createdAt: Date
    /// Who wrote it.
    public let user: Author

    /// The item's author.
    public struct Author: Decodable, Sendable {
        /// The author's id.
        public let id: String
        /// The display name.
        public let name: String
    }
}

extension APIClient {
    /// One page of items and the total the server reports.
    public func items(page: Int, perPage: Int) async throws -> (items: [Item], total: Int?) {
        let target = QiitaAPI.items(page: page, perPage: perPage)
        let (data, response) = try await send(target)
        if let error = target.error(status: response.statusCode, body: data) { throw error }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        let total = (response.value(forHTTPHeaderField: "Total-Count")).flatMap(Int.init)
        return (try decoder.decode([Item].self, from: data), total)
    }
}
