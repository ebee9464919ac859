import APIClient
import Foundation
import StubServer

/// The repository's shipped Stubs/, which the example APIs match.
enum ShippedStubs {
    static var url: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Stubs")
    }
}

/// Starts stubd in-process on port 0 for one test, with a client pointed at it, and stops it after.
func withStubd<T>(plugins: [any RequestPlugin] = [], timeout: TimeInterval = 10, retry: RetryPolicy = .none,
                  _ body: (StubServer, APIClient) async throws -> T) async throws -> T {
    let server = try StubServer(stubsAt: ShippedStubs.url, port: 0)
    defer { server.stop() }
    let client = APIClient(server: server.baseURL, plugins: plugins, timeout: timeout, retry: retry)
    return try await body(server, client)
}

/// The `URLError` code `work` fails with, or nil if it succeeded or failed otherwise.
func urlErrorCode(_ work: () async throws -> Void) async -> URLError.Code? {
    do {
        try await work()
        return nil
    } catch let error as URLError {
        return error.code
    } catch {
        return nil
    }
}

/// Milliseconds on a monotonic clock.
func nowMs() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1_000_000 }
