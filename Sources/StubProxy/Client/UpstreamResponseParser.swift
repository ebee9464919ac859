/// Reads one HTTP/1.1 response as its bytes arrive (RFC 9112): interim `1xx` answers are
/// skipped, and the body is framed by `Transfer-Encoding: chunked`, `Content-Length`, or the
/// connection's end, in that order. Knows nothing of sockets; `UpstreamCall` feeds it.
struct UpstreamResponseParser {
    /// Why a response cannot be read.
    enum Failure: Error, Equatable {
        /// Not HTTP/1.x as RFC 9112 writes it; the words say where.
        case malformed(String)
        /// The body is over the limit the parser was given.
        case tooLarge
    }

    enum Stage {
        case head
        case fixed(remaining: Int)
        case chunkSize
        case chunkData(remaining: Int)
        case chunkEnd
        case trailers
        case untilClose
        case done
    }

    /// The longest head (status line and headers) taken, as browsers and proxies bound it.
    static let maxHeadBytes = 64 << 10

    let maxBodyBytes: Int
    /// A `HEAD` request's answer has no body whatever its headers say.
    let requestWasHead: Bool
    var status = 0
    var headers: [(name: String, value: String)] = []
    private(set) var body: [UInt8] = []
    /// Whether the connection may carry another request once this response is read.
    var keepAlive = true
    /// Whether any byte of a response has arrived (a reused connection that closes before one
    /// did may be retried).
    private(set) var started = false
    private var pending: [UInt8] = []
    var stage = Stage.head
    /// Bytes of head lines taken so far (interim answers included).
    var headBytes = 0

    init(maxBodyBytes: Int, requestWasHead: Bool) {
        self.maxBodyBytes = maxBodyBytes
        self.requestWasHead = requestWasHead
    }

    /// Whether the whole response has been read.
    var isComplete: Bool {
        if case .done = stage { return true }
        return false
    }

    /// Takes the next bytes; returns true once the response is complete (bytes after it, which
    /// a well-behaved server does not send, are ignored and the connection is not reused).
    mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> Bool {
        if !bytes.isEmpty { started = true }
        pending.append(contentsOf: bytes)
        var at = 0
        defer { pending.removeFirst(min(at, pending.count)) }
        while true {
            switch stage {
            case .done:
                if at < pending.count { keepAlive = false }
                return true
            case .untilClose:
                try append(at..<pending.count)
                at = pending.count
                return false
            case .fixed(let remaining):
                let n = min(remaining, pending.count - at)
                try append(at..<at + n)
                at += n
                stage = remaining == n ? .done : .fixed(remaining: remaining - n)
                if remaining != n { return false }
            case .chunkData(let remaining):
                let n = min(remaining, pending.count - at)
                try append(at..<at + n)
                at += n
                stage = remaining == n ? .chunkEnd : .chunkData(remaining: remaining - n)
                if remaining != n { return false }
            case .head, .chunkSize, .chunkEnd, .trailers:
                guard let line = try nextLine(from: &at) else { return false }
                try take(line)
            }
        }
    }

    /// The connection ended: complete if the body runs until the end, else a failure.
    mutating func finishAtClose() throws(Failure) {
        keepAlive = false
        switch stage {
        case .untilClose: stage = .done
        case .done: break
        case .head where !started: throw .malformed("the connection closed before an answer")
        default: throw .malformed("the connection closed in the middle of the answer")
        }
    }

    private mutating func append(_ range: Range<Int>) throws(Failure) {
        guard body.count + range.count <= maxBodyBytes else { throw .tooLarge }
        body.append(contentsOf: pending[range])
    }

    /// The next line without its CR LF (a bare LF is taken too), or nil when it has not all arrived.
    private mutating func nextLine(from at: inout Int) throws(Failure) -> [UInt8]? {
        guard let end = pending[at...].firstIndex(of: UInt8(ascii: "\n")) else {
            if pending.count - at > UpstreamResponseParser.maxHeadBytes { throw .malformed("a line of the answer's head is over 64 KiB") }
            return nil
        }
        var line = Array(pending[at..<end])
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        at = end + 1
        return line
    }

    private mutating func take(_ line: [UInt8]) throws(Failure) {
        switch stage {
        case .head: try takeHeadLine(line)
        case .chunkSize:
            let digits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
            guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16) else {
                throw .malformed("a chunk size is not hexadecimal")
            }
            guard body.count + size <= maxBodyBytes else { throw .tooLarge }
            stage = size == 0 ? .trailers : .chunkData(remaining: size)
        case .chunkEnd:
            guard line.isEmpty else { throw .malformed("a chunk does not end with CR LF") }
            stage = .chunkSize
        case .trailers:
            if line.isEmpty { stage = .done }
        default: break
        }
    }
}
