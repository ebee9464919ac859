#if canImport(Testing) && compiler(>=6.1)  // TestScoping came with Swift 6.1's Testing
import Foundation
import StubServer
import StubdClient

/// The server a `.stubServer` scope talks to: in-process, or running elsewhere.
final class StubEndpoint: Sendable {
    /// The server's address without a session.
    let serverURL: URL
    /// The in-process server; nil when attached to a running stubd.
    let server: StubServer?
    let adminToken: String?

    init(serverURL: URL, server: StubServer?, adminToken: String?) {
        self.serverURL = serverURL
        self.server = server
        self.adminToken = adminToken
    }

    /// The endpoint of the innermost `.stubServer` scope around the running task.
    @TaskLocal static var current: StubEndpoint?

    /// Runs `body` with the endpoint `source` names, and always stops an in-process server (and
    /// removes its written stubs) afterwards.
    static func open(_ source: StubServerTrait.Source, _ body: (StubEndpoint) async throws -> Void) async throws {
        switch source {
        case .running(let url, let adminToken):
            try await StubdClient(baseURL: url, adminToken: adminToken).waitUntilHealthy(timeout: 10)
            try await body(StubEndpoint(serverURL: url, server: nil, adminToken: adminToken))
        case .directory(let directory, let configure):
            try await serve(directory, configure, body)
        case .files(let files, let configure):
            let directory = try TemporaryStubDirectory(files)
            try await serve(directory.url, configure, body)
            withExtendedLifetime(directory) {}
        }
    }

    private static func serve(_ directory: URL, _ configure: (inout StubServerConfiguration) -> Void,
                              _ body: (StubEndpoint) async throws -> Void) async throws {
        try await withStubServer(stubsAt: directory, configure: configure) { server in
            try await body(StubEndpoint(serverURL: server.baseURL, server: server, adminToken: server.configuration.adminToken))
        }
    }
}

extension StubdTestSession {
    /// The in-process `StubServer` of the `.stubServer` scope this test runs in, for what only
    /// it offers (its catalog, `reload()`, a synchronous journal); nil when the scope attached
    /// to a running stubd, or outside one.
    public var server: StubServer? {
        StubEndpoint.current.flatMap { $0.serverURL == serverURL ? $0.server : nil }
    }
}
#endif
