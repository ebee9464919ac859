import StubCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One request to the upstream and its answer, from resolving the host to the last body byte:
/// the state `UpstreamClient` advances whenever its socket is ready. Lives on the client's thread.
final class UpstreamCall {
    /// What the caller gets back.
    struct Answer: Sendable {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: [UInt8]
    }

    typealias Completion = @Sendable (Result<Answer, UpstreamFailure>) -> Void

    enum Stage { case waiting, opening, writing, reading }

    let origin: UpstreamOrigin
    let deadlineMs: Int
    private let timeoutMs: Int
    let completion: Completion
    private let request: [UInt8]
    private let maxBodyBytes: Int
    private let isHead: Bool
    private(set) var stage = Stage.waiting
    private(set) var socket: UpstreamSocket?
    private var written = 0
    private var parser: UpstreamResponseParser
    /// Addresses left to try, for a host with several (localhost: ::1, then 127.0.0.1).
    var addresses: [SocketAddress] = []
    /// Whether `socket` came from the pool: a pooled connection the upstream closed before
    /// answering is retried once on a new one.
    private var reused = false
    private var retried = false
    /// Why the last address failed, reported if none is left.
    private var lastFailure: UpstreamFailure?

    init(_ request: UpstreamRequest, origin: UpstreamOrigin, maxBodyBytes: Int, nowMs: Int, completion: @escaping Completion) {
        self.origin = origin
        self.request = request.bytes(for: origin)
        self.maxBodyBytes = maxBodyBytes
        isHead = request.method == "HEAD"
        timeoutMs = request.timeoutMs
        deadlineMs = nowMs + request.timeoutMs
        self.completion = completion
        parser = UpstreamResponseParser(maxBodyBytes: maxBodyBytes, requestWasHead: isHead)
    }

    /// Starts on `socket`, taken from the pool (`reused`) or just connecting.
    func attach(_ socket: UpstreamSocket, reused: Bool) {
        self.socket = socket
        self.reused = reused
        wanted = nil
        stage = socket.phase == .open ? .writing : .opening
    }

    /// What the call waits for, as `poll(2)` events, or nil when it has no socket yet.
    var wanted: Int16?

    /// Does all the work the socket allows now. Returns the outcome once the call is over;
    /// nil while it waits (`wanted` says for what). A pooled connection found dead comes back
    /// as `.retry`.
    func advance(trust: UpstreamTrust?, scratch: UnsafeMutableRawBufferPointer) -> Outcome? {
        guard let socket else { return nil }
        while true {
            switch stage {
            case .waiting: return nil
            case .opening:
                switch socket.advanceOpening(trust: trust) {
                case .moved: stage = .writing
                case .wouldBlock(let write): return waitFor(write)
                case .closed: return nextAddress(UpstreamFailure(.cannotConnect, "\(origin.text) closed the connection while opening it"))
                case .failed(let failure): return nextAddress(failure)
                }
            case .writing:
                let chunk = min(request.count - written, 16 << 10)
                let step = request.withUnsafeBytes { socket.send(UnsafeRawBufferPointer(rebasing: $0[written..<written + chunk])) }
                switch step {
                case .moved(let n):
                    written += n
                    if written == request.count { stage = .reading }
                case .wouldBlock(let write): return waitFor(write)
                case .closed: return lost(UpstreamFailure(.connectionLost, "\(origin.text) closed the connection before the request was sent"))
                case .failed(let failure): return lost(failure)
                }
            case .reading:
                switch socket.receive(scratch) {
                case .moved(let n):
                    do {
                        if try parser.feed(UnsafeRawBufferPointer(rebasing: scratch[..<n])) { return .answered(answer, keepSocket: parser.keepAlive) }
                    } catch { return .failed(describe(error)) }
                case .wouldBlock(let write): return waitFor(write)
                case .closed:
                    if reused && !parser.started && !retried { return .retry }
                    do {
                        try parser.finishAtClose()
                        return .answered(answer, keepSocket: false)
                    } catch { return .failed(describe(error)) }
                case .failed(let failure): return lost(failure)
                }
            }
        }
    }

    /// Starts over on a new connection after a pooled one turned out dead.
    func restart() {
        retried = true
        socket = nil
        wanted = nil
        written = 0
        stage = .waiting
        parser = UpstreamResponseParser(maxBodyBytes: maxBodyBytes, requestWasHead: isHead)
    }

    /// Lets go of the connection (closed unless the pool kept it).
    func release() {
        socket = nil
        wanted = nil
    }

    /// The failure of a call whose deadline passed.
    var timeoutFailure: UpstreamFailure {
        let wait = timeoutMs % 1000 == 0 ? "\(timeoutMs / 1000) s" : "\(timeoutMs) ms"
        return UpstreamFailure(.timedOut, "no answer from \(origin.text) within \(wait)")
    }

    /// The next address after `failure` opening one, or the failure when none is left.
    private func nextAddress(_ failure: UpstreamFailure) -> Outcome {
        lastFailure = failure
        socket = nil
        stage = .waiting
        return addresses.isEmpty ? .failed(failure) : .nextAddress
    }

    private func lost(_ failure: UpstreamFailure) -> Outcome {
        reused && !parser.started && !retried ? .retry : .failed(failure)
    }

    private func waitFor(_ write: Bool) -> Outcome? {
        wanted = write ? Int16(POLLOUT) : Int16(POLLIN)
        return nil
    }

    private var answer: Answer { Answer(status: parser.status, headers: parser.headers, body: parser.body) }

    private func describe(_ error: UpstreamResponseParser.Failure) -> UpstreamFailure {
        switch error {
        case .tooLarge: UpstreamFailure(.tooLarge, "the upstream's body is over \(maxBodyBytes) bytes, the proxy's limit")
        case .malformed(let why): UpstreamFailure(.badServerResponse, "\(origin.text) answered something that is not HTTP/1.1: \(why)")
        }
    }

    /// How a call ended, or what it needs next.
    enum Outcome {
        case answered(Answer, keepSocket: Bool)
        case failed(UpstreamFailure)
        /// The pooled connection was dead: try again on a new one.
        case retry
        /// The address failed to open: try the next.
        case nextAddress
    }
}

/// A request to the upstream, in the forwarder's terms.
struct UpstreamRequest: Sendable {
    var method: String
    /// The path and query to ask for, already under the upstream's base path.
    var target: String
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    var timeoutMs: Int

    /// The request as HTTP/1.1 bytes. Headers holding CR or LF are left out (they cannot come
    /// from a parsed request, and must never split the head).
    func bytes(for origin: UpstreamOrigin) -> [UInt8] {
        var head = "\(method) \(target) HTTP/1.1\r\nHost: \(origin.hostHeader)\r\n"
        for (name, value) in headers where !name.contains(where: \.isNewline) && !value.contains(where: \.isNewline) {
            head += "\(name): \(value)\r\n"
        }
        // The body is passed on as it arrives, so ask for it unencoded.
        head += "Accept-Encoding: identity\r\n"
        if !body.isEmpty || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        return Array(head.utf8) + body
    }
}
