import StubServer
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `stubd probe URL`: a dependency-free HTTP GET for container health checks (no curl in the image).
enum ProbeCommand {
    static let usage = """
    OVERVIEW: GET an http:// URL and exit 0 when it answers 2xx, 1 otherwise.

    USAGE: stubd probe URL
    """

    static func run(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1, let target = ProbeTarget(arguments[0]) else {
            if arguments.first == "--help" || arguments.first == "-h" { print(usage); return 0 }
            StubdCommand.fail("expected one URL like http://127.0.0.1:8080/__stubd/health", usage: usage)
            return 2
        }
        guard let status = target.fetch(timeoutSeconds: 2, headers: [])?.status else {
            StubdCommand.printError("probe: no HTTP answer from \(arguments[0])")
            return 1
        }
        print("probe: \(status)")
        return (200..<300).contains(status) ? 0 : 1
    }
}

/// Host, port and path of an `http://` URL, and a one-shot GET (`fetch`).
struct ProbeTarget {
    let host: String
    let port: UInt16
    let path: String

    init?(_ url: String) {
        guard url.hasPrefix("http://") else { return nil }
        let rest = url.dropFirst(7)
        let hostPort = rest.prefix { $0 != "/" }
        path = rest.count > hostPort.count ? String(rest.dropFirst(hostPort.count)) : "/"
        let parts = hostPort.split(separator: ":")
        host = parts.first.map(String.init) == "localhost" ? "127.0.0.1" : String(parts.first ?? "127.0.0.1")
        guard let port = parts.count > 1 ? UInt16(parts[1]) : 80 else { return nil }
        self.port = port
    }
}

extension ProbeTarget {
    /// A GET with `headers` (`Name: value` lines) over HTTP/1.0, read until the server closes:
    /// the status and the body; nil when no whole answer came (any failing call means none).
    func fetch(timeoutSeconds: Int, headers: [String]) -> (status: Int, body: [UInt8])? {
        guard var address = LibC.ipv4Address(host, port: Int(port)) else { return nil }
        guard let fd = try? SystemCall.run("socket", { socket(AF_INET, LibC.streamSocket, 0) }) else { return nil }
        defer { close(fd) }
        var timeout = LibC.timeval(milliseconds: timeoutSeconds * 1000)
        let size = socklen_t(MemoryLayout<timeval>.size)
        let request = Array(("GET \(path) HTTP/1.0\r\nHost: \(host)\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n").utf8)
        guard (try? SystemCall.run("setsockopt", { setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, size) })) != nil,
              (try? SystemCall.run("setsockopt", { setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, size) })) != nil,
              (try? SystemCall.run("connect", { withUnsafePointer(to: &address) {
                  $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
              } })) != nil,
              (try? SystemCall.run("send", { request.withUnsafeBytes { LibC.sendNoSignal(fd, $0.baseAddress, $0.count) } })) == request.count
        else { return nil }
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while let n = try? SystemCall.run("recv", { buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) } }), n > 0 {
            answer += buffer[..<n]
        }
        let separator = Array("\r\n\r\n".utf8)
        guard answer.count > 12, let end = answer.indices.first(where: { answer[$0...].starts(with: separator) }),
              let status = Int(String(decoding: answer[9..<12], as: UTF8.self)) else { return nil }
        return (status, Array(answer[(end + 4)...]))
    }
}
