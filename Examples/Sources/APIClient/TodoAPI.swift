import Foundation

/// The app's todo list (Stubs/app/todos, a collection): a page of todos, and one todo to create,
/// read, update and delete. Errors come in the app's envelope, as `AppError`.
public enum TodoAPI: TargetType {
    /// `GET /todos?page=&per_page=&sort=`: one page.
    case list(page: Int, perPage: Int, sort: String? = nil)
    /// `POST /todos`: a new todo; the server gives its id.
    case create(title: String)
    /// `GET /todos/{id}`.
    case todo(id: Int)
    /// `PATCH /todos/{id}` with `{"done": …}`.
    case setDone(id: Int, done: Bool)
    /// `DELETE /todos/{id}`.
    case delete(id: Int)

    public var baseURL: URL { AppAPI.users.baseURL }

    public var path: String {
        switch self {
        case .list, .create: return "todos"
        case .todo(let id), .setDone(let id, _), .delete(let id): return "todos/\(id)"
        }
    }

    public var method: HTTPMethod {
        switch self {
        case .list, .todo: return .get
        case .create: return .post
        case .setDone: return .patch
        case .delete: return .delete
        }
    }

    public var task: RequestTask {
        switch self {
        case .list(let page, let perPage, let sort):
            return .query([("page", String(page)), ("per_page", String(perPage))] + (sort.map { [("sort", $0)] } ?? []))
        case .create(let title): return .json(NewTodo(title: title, done: false))
        case .setDone(_, let done): return .json(DoneChange(done: done))
        case .todo, .delete: return .plain
        }
    }

    public func error(status: Int, body: Data) -> (any Error)? {
        AppAPI.users.error(status: status, body: body)
    }
}

/// One todo.
public struct Todo: Decodable, Equatable, Sendable {
    /// The server-given id.
    public let id: Int
    /// What to do.
    public let title: String
    /// Whether it is done.
    public let done: Bool
}

/// A page of todos in the app's envelope: `{"data": [...], "meta": {...}}`.
public struct TodoPage: Decodable, Sendable {
    /// The page's todos.
    public let data: [Todo]
    /// Where the page is in the whole list.
    public let meta: Meta

    /// The list's paging figures.
    public struct Meta: Decodable, Sendable {
        /// Todos in the whole list.
        public let total: Int
        /// This page's number, from 1.
        public let page: Int
        /// Pages in the whole list.
        public let pages: Int
    }
}

struct NewTodo: Encodable, Sendable {
    let title: String
    let done: Bool
}

struct DoneChange: Encodable, Sendable {
    let done: Bool
}
