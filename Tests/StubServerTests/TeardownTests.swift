import Foundation
@testable import StubServer
import StubSystem
import StubTestSupport
import StubTesting
import Testing

/// One way down: a server that stops, and one that fails to start part-way, leave no thread, no
/// descriptor and no object of theirs behind.
@Suite(.timeLimit(.minutes(2))) struct TeardownTests {
    static let stubs = [
        "app/a/route.json": #"{"method": "GET", "path": "/a"}"#,
        "app/a/200.json": "{}",
        "ws/echo/route.json": #"{"path": "/ws/echo", "websocket": {}, "variants": {"echo": {"conversation": {"replies": [{"send": [{"echo": true}]}]}}}}"#,
    ]

    /// The threads stubd and libmicrohttpd start (named `stubd-…` and `MHD-…`) in this process.
    static func serverThreads() -> [String] {
        (ProcessThreads.names(of: getpid()) ?? []).filter { $0.hasPrefix("stubd-") || $0.hasPrefix("MHD-") }.sorted()
    }

    /// The descriptors open in this process.
    static func openDescriptors() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.map { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) ?? "?" }.sorted()
    }

    static func configuration(tls: Bool = false) -> StubServerConfiguration {
        var configuration = StubServerConfiguration()
        configuration.watch = true
        configuration.log = .json
        if tls {
            // libmicrohttpd refuses to start HTTPS with these: the plain daemon is running by then.
            configuration.tls = .init(certificatePEM: Array("not a certificate".utf8), keyPEM: Array("not a key".utf8))
        }
        return configuration
    }

    /// A server that served a request and held a conversation, then stopped; one whose HTTPS
    /// daemon failed after every other part had started; one whose port was taken.
    static func cycle(stubs: URL) async throws -> Weak<StubServer> {
        let weak = Weak<StubServer>()
        try await withStubServer(stubsAt: stubs, configure: { $0 = configuration() }) { server in
            weak.object = server
            // A raw socket, not URLSession: its pool would keep its own connection to the server open.
            let plain = try RawSocket(port: server.port)
            plain.send(Array("GET /a HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n".utf8))
            #expect(String(decoding: plain.readAll(), as: UTF8.self).hasPrefix("HTTP/1.1 200"))
            let client = try RawWebSocket(port: server.port, path: "/ws/echo")
            client.send("hi")
            #expect(client.next()?.text == "hi")
        }
        #expect(throws: StubServerError.self) { try StubServer(stubsAt: stubs, configuration: configuration(tls: true)) }
        try withExtendedLifetime(try StubServer(stubsAt: stubs, configuration: configuration())) { holder in
            var taken = configuration()
            taken.port = holder.port
            #expect(throws: StubServerError.self) { try StubServer(stubsAt: stubs, configuration: taken) }
            holder.stop()
        }
        return weak
    }

    @Test(.enabled(if: ProcessThreads.canCount, "threads and descriptors are read from /proc, which macOS does not have"))
    func startsStopsAndFailedStartsLeaveNothingBehind() async throws {
        let stubs = try TemporaryStubDirectory(TeardownTests.stubs)
        // Once first, so that what is made once per process (libmicrohttpd's and GnuTLS's own
        // set-up, URLSession's threads) is there on both sides of the count.
        _ = try await TeardownTests.cycle(stubs: stubs.url)
        let threads = TeardownTests.serverThreads(), descriptors = TeardownTests.openDescriptors()
        for _ in 0..<5 {
            let server = try await TeardownTests.cycle(stubs: stubs.url)
            #expect(server.object == nil, "a stopped server is still retained")
        }
        // Nothing more than before: a server another test left to its end may let go of its own
        // meanwhile, but these cycles add no thread and no descriptor.
        let after = TeardownTests.serverThreads()
        for name in Set(after) {
            #expect(after.filter { $0 == name }.count <= threads.filter { $0 == name }.count, "\(after) against \(threads)")
        }
        let descriptorsAfter = TeardownTests.openDescriptors()
        #expect(descriptorsAfter.count <= descriptors.count, "\(descriptorsAfter) against \(descriptors)")
    }
}

extension TeardownTests {
    /// libmicrohttpd closes the listen socket it was given when its start fails (0.9.75, on a TLS
    /// key it refuses); closing it again closed whatever had reused the number since, in one run
    /// a libmicrohttpd daemon's own socket, which then aborted the process.
    @Test func aListenSocketTheLibraryClosedIsNotClosedAgain() throws {
        let socket = try ListenSocket.open(host: "127.0.0.1", port: 0)
        let other = try ListenSocket.open(host: "127.0.0.1", port: 0)
        // The library closes it, and another socket takes its number.
        close(socket.fd)
        #expect(dup2(other.fd, socket.fd) == socket.fd)
        socket.closeIfStillOurs()
        #expect(LibC.inode(of: socket.fd) == other.inode, "the socket that took the number was closed")
        close(socket.fd)
        other.closeIfStillOurs()
        #expect(LibC.inode(of: other.fd) == nil)
    }
}

/// A weak reference, for checking that nothing else keeps an object alive.
final class Weak<Object: AnyObject>: @unchecked Sendable {
    weak var object: Object?
}
