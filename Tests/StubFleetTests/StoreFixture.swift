import Foundation
import StubSystem
import StubTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A real Valkey or Redis server for the fleet suites, on a free port, started and stopped by
/// the test (Debian's `redis-server`, which `.ci/run` installs; `valkey-server` works too).
final class StoreFixture: @unchecked Sendable {
    // @unchecked: `process` is replaced only by `start` and `stop`, which a test calls in turn.
    let port: Int
    let folder: URL
    private var process: Spawned?
    private var persist = false

    /// With TLS: the folder of `stubd tls init` whose server.pem and server-key.pem the store serves.
    private(set) var tlsFolder: URL?

    init(port: Int? = nil) throws {
        self.port = port ?? StoreFixture.freePort()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("stubd-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var url: String { tlsFolder == nil ? "redis://127.0.0.1:\(port)" : "rediss://localhost:\(port)" }

    /// Serves TLS only, with a certificate for localhost from a new `stubd tls init` authority
    /// (its ca.pem is `tlsAuthority`).
    func useTLS() async throws {
        let folder = self.folder.appendingPathComponent("tls")
        let made = try await Subprocess.run(Repository.stubdBinary, ["tls", "init", "--tls-dir", folder.path])
        guard made.exitCode == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: made.stderr]) }
        tlsFolder = folder
    }

    var tlsAuthority: String? { tlsFolder?.appendingPathComponent("ca.pem").path }

    /// Starts the server (keeping its data across a restart when `persist`) and waits until it answers.
    func start(persist: Bool = false) throws {
        guard let executable = RequiredTool.redisServer.executable else { throw CocoaError(.featureUnsupported) }
        var arguments = tlsFolder.map { ["--port", "0", "--tls-port", String(port), "--tls-auth-clients", "no",
                                         "--tls-cert-file", $0.appendingPathComponent("server.pem").path,
                                         "--tls-key-file", $0.appendingPathComponent("server-key.pem").path,
                                         "--tls-ca-cert-file", $0.appendingPathComponent("ca.pem").path] } ?? ["--port", String(port)]
        arguments += ["--bind", "127.0.0.1", "--dir", folder.path, "--logfile", folder.appendingPathComponent("log").path,
                         "--appendonly", "no", "--protected-mode", "no"]
        arguments += persist ? ["--save", "3600 1"] : ["--save", ""]
        self.persist = persist
        process = try Spawned(executable, arguments)
        let deadline = ContinuousClock.now + .seconds(10)  // monotonic: the wall clock may step
        while ContinuousClock.now < deadline {
            // A TLS store is ready once its port accepts (a plain PING gets no answer there).
            if tlsFolder == nil ? StoreFixture.answers(port) : StoreFixture.accepts(port) { return }
            usleep(20_000)
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "the store did not answer on \(port)"])
    }

    /// Pauses (SIGSTOP) or resumes (SIGCONT) the store: connected, silent.
    func pause(_ paused: Bool) {
        if let running = process { kill(running.pid, paused ? SIGSTOP : SIGCONT) }
    }

    /// Stops the server (saving first when it persists) and waits for it to end. Asked with
    /// SHUTDOWN, not SIGTERM: a child of the test process may start with SIGTERM blocked.
    func stop() {
        guard let running = process else { return }
        // SHUTDOWN closes the connection without a reply (""); nil means it could not be asked.
        // A TLS store cannot be asked in plain text: it is killed (it keeps no data anyway).
        if tlsFolder != nil || StoreFixture.send(port, persist ? "SHUTDOWN SAVE" : "SHUTDOWN NOSAVE") == nil { kill(running.pid, SIGKILL) }
        running.waitForExit()
        process = nil
    }

    /// Sends one inline command and returns the first line of the answer ("+PONG"), "" when the
    /// connection closed without one, nil when there was no connection.
    static func send(_ port: Int, _ command: String) -> String? {
        reply(port, command)?.components(separatedBy: "\r\n").first
    }

    /// Sends one inline command and returns what the first read of the answer got (a short
    /// answer, such as `INFO errorstats`, whole); "" and nil as for `send`.
    static func reply(_ port: Int, _ command: String) -> String? {
        guard let fd = connected(port) else { return nil }
        defer { close(fd) }
        let line = command + "\r\n"
        _ = line.withCString { write(fd, $0, strlen($0)) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fd, &buffer, buffer.count)
        guard n > 0 else { return n == 0 ? "" : nil }
        return String(decoding: buffer[0..<n], as: UTF8.self)
    }

    static func answers(_ port: Int) -> Bool { send(port, "PING") == "+PONG" }

    /// True when something accepts a connection on the port.
    static func accepts(_ port: Int) -> Bool {
        guard let fd = connected(port) else { return false }
        close(fd)
        return true
    }

    /// A socket connected to 127.0.0.1:`port`, or nil.
    private static func connected(_ port: Int) -> Int32? {
        let fd = socket(AF_INET, LibC.streamSocket, 0)
        guard fd >= 0 else { return nil }
        var address = LibC.loopbackAddress(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// A port nothing listens on now.
    static func freePort() -> Int {
        let fd = socket(AF_INET, LibC.streamSocket, 0)
        defer { close(fd) }
        var address = LibC.loopbackAddress(port: 0)
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, size) == 0 ? getsockname(fd, $0, &size) : -1 }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
