import Foundation

/// The app's own API (Stubs/app): every answer is `{"data": …, "error": {"title", "message"}}`.
public enum AppAPI: TargetType {
    case login(email: String, password: String)
    case changePassword(old: String, new: String)
    case users
    case user(id: Int)

    public var baseURL: URL { URL(string: "https://api.example.com/api/v1")! }

    public var path: String {
        switch self {
        case .login: return "login"
        case .changePassword: return "changePass"
        case .users: return "users"
        case .user(let id): return "users/\(id)"
        }
    }

    public var method: HTTPMethod {
        if case .changePassword = self { return .post }
        return .get
    }

    public var task: RequestTask {
        switch self {
        case .login(let email, let password): return .query([("email", email), ("password", password)])
        case .changePassword(let old, let new): return .json(PasswordChange(oldPassword: old, newPassword: new))
        case .users, .user: return .plain
        }
    }

    /// A non-2xx answer carries `error.title` and `error.message`.
    public func error(status: Int, body: Data) -> (any Error)? {
        guard !(200..<300).contains(status) else { return nil }
        guard let envelope = try? JSONDecoder().decode(Envelope<Empty>.self, from: body), let error = envelope.error else {
            return APIError.status(status)
        }
        return AppError(status: status, title: error.title, message: error.message)
    }
}

/// The app API's error, as its envelope states it.
public struct AppError: Error, Equatable {
    public let status: Int
    public let title: String
    public let message: String

    /// An error as the envelope states it.
    public init(status: Int, title: String, message: String) {
        self.status = status
        self.title = title
        self.message = message
    }
}

/// `{"data": T, "error": …}`.
public struct Envelope<T: Decodable & Sendable>: Decodable, Sendable {
    public let data: T?
    public let error: EnvelopeError?
}

/// The `error` member of the app envelope.
public struct EnvelopeError: Decodable, Sendable {
    public let title: String
    public let message: String
}

/// A `data` nobody reads.
public struct Empty: Decodable, Sendable {}

struct PasswordChange: Encodable, Sendable {
    let oldPassword: String
    let newPassword: String
}

/// A user of the app API.
public struct User: Decodable, Equatable, Sendable {
    public let id: Int
    public let name: String
    public let email: String
    public let avatarUrl: URL
    public let createdAt: Date
}

/// What a login returns.
public struct Session: Decodable, Sendable {
    public let token: String
    public let user: User
}
