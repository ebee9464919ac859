import Foundation

/// The app's own API (Stubs/app): every answer is `{"data": …, "error": {"title", "message"}}`.
public enum AppAPI: TargetType {
    /// `GET /login?email=&password=`: a session for the credentials.
    case login(email: String, password: String)
    /// `POST /changePass` with a JSON body.
    case changePassword(old: String, new: String)
    /// `GET /users`: every user.
    case users
    /// `GET /users/{id}`: one user.
    case user(id: Int)

    /// The app API's production root.
    public var baseURL: URL { URL(string: "https://api.example.com/api/v1")! }

    /// The endpoint under `/api/v1`.
    public var path: String {
        switch self {
        case .login: return "login"
        case .changePassword: return "changePass"
        case .users: return "users"
        case .user(let id): return "users/\(id)"
        }
    }

    /// POST for the password change, GET otherwise.
    public var method: HTTPMethod {
        if case .changePassword = self { return .post }
        return .get
    }

    /// Query parameters for login, a JSON body for the password change.
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
    /// The HTTP status.
    public let status: Int
    /// The envelope's `error.title`.
    public let title: String
    /// The envelope's `error.message`, ready to show.
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
    /// The payload; nil on errors.
    public let data: T?
    /// The error; nil on success.
    public let error: EnvelopeError?
}

/// The `error` member of the app envelope.
public struct EnvelopeError: Decodable, Sendable {
    /// A short title.
    public let title: String
    /// A sentence for the user.
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
    /// The user's id.
    public let id: Int
    /// The display name.
    public let name: String
    /// The email address.
    public let email: String
    /// The avatar image.
    public let avatarUrl: URL
    /// When the account was made.
    public let createdAt: Date
}

/// What a login returns.
public struct Session: Decodable, Sendable {
    /// The bearer token for later calls.
    public let token: String
    /// Who logged in.
    public let user: User
}
