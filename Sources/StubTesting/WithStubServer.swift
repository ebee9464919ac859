import Foundation
import StubServer

/// Runs `body` with a `StubServer` serving `directory` on a free port of 127.0.0.1, and always
/// stops the server afterwards, when `body` returns and when it throws. `configure` adjusts the
/// configuration first (a delay, a journal size, HTTPS).
///
/// ```swift
/// @Test func showsTheUser() async throws {
///     try await withStubServer(stubsAt: stubsURL) { server in
///         let (data, _) = try await URLSession.shared.data(from: server.url("/api/v1/users/1"))
///         #expect(try JSONDecoder().decode(User.self, from: data).id == 1)
///     }
/// }
/// ```
public func withStubServer<T>(stubsAt directory: URL, configure: (inout StubServerConfiguration) -> Void = { _ in },
                              _ body: (StubServer) async throws -> T) async throws -> T {
    var configuration = StubServerConfiguration()
    configure(&configuration)
    let server = try StubServer(stubsAt: directory, configuration: configuration)
    do {
        let result = try await body(server)
        await stopOffThePool(server)
        return result
    } catch {
        await stopOffThePool(server)
        throw error
    }
}

/// Stops `server` on a thread of its own: stopping waits for delayed and held connections to
/// close (up to a few seconds), which must not block a thread of Swift's shared pool.
private func stopOffThePool(_ server: StubServer) async {
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
        Thread {
            server.stop()
            done.resume()
        }.start()
    }
}

extension StubServer {
    /// `baseURL` with `pathAndQuery` appended: `server.url("/api/v1/users?page=2")`.
    public func url(_ pathAndQuery: String) -> URL {
        URL(string: baseURL.absoluteString + pathAndQuery)!
    }
}
