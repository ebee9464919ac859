/// Per-request controls a test puts on a request: `X-Stub-Variant`, `X-Stub-Delay`, `X-Stub-Fault`
/// headers or `__variant`, `__delay`, `__fault` query parameters (header wins), and the same for
/// `X-Stub-Throttle` / `__throttle`.
package struct RequestControls: Sendable, Equatable {
    /// The query parameters that carry controls; they are removed before matching and journaling.
    package static let queryNames = ["__variant", "__delay", "__fault", "__throttle"]

    /// A variant name to serve.
    package var variant: String?
    /// A delay in milliseconds that beats every file setting.
    package var delayMs: Int?
    /// A fault to serve.
    package var fault: Fault?
    /// The code and place of an `rst-stream` fault (`rst-stream=CODE`, `rst-stream-after=N`).
    package var streamReset: StreamReset?
    /// Bytes per second to send the body at.
    package var throttleBytesPerSecond: Int?
    /// For a streamed body: reset the connection after this many events (`cut-after=N`).
    package var cutAfter: Int?
    /// A Postman mock server's selection: `x-mock-response-name` (a variant's name or
    /// description, which `import-postman` sets to the example's name) and
    /// `x-mock-response-code` (its status). `X-Stub-Variant` beats both.
    package var mockName: String?
    package var mockCode: Int?

    /// Reads the controls by lookup; a malformed control is a 400 reply, never ignored. The control
    /// query parameters are left out of the request's journal copy (`RequestHead.snapshot()`).
    package static func read(from request: some RequestHead) -> Result<RequestControls, ReplyFailure> {
        var controls = RequestControls()
        guard request.mayCarryControls else { return .success(controls) }
        // A static helper, not a local function: capturing `request` would copy (retain) it.
        controls.variant = value(request, header: "X-Stub-Variant", query: "__variant")
        if controls.variant == nil {
            controls.mockName = request.header("X-Mock-Response-Name")
            if let text = request.header("X-Mock-Response-Code") {
                guard let code = Int(text.trimmingASCIISpaces()), (100...599).contains(code) else {
                    return .failure(ReplyFailure(.error(400, "invalid x-mock-response-code", [("value", .string(text)), ("expected", .string("an HTTP status, 100 to 599"))])))
                }
                controls.mockCode = code
            }
        }
        if let text = value(request, header: "X-Stub-Delay", query: "__delay") {
            guard let ms = Int(text.trimmingASCIISpaces()), ms >= 0, ms <= Limits.maxDelayMs else {
                return .failure(ReplyFailure(.error(400, "invalid delay", [("value", .string(text)), ("expected", .string(Limits.delayExpectation))])))
            }
            controls.delayMs = ms
        }
        if let text = value(request, header: "X-Stub-Fault", query: "__fault") {
            let name = text.trimmingASCIISpaces()
            if name.hasPrefix("cut-after="), let n = Int(name.dropFirst("cut-after=".count)), n >= 0 {
                controls.cutAfter = n
            } else if case .reset(let reset) = StreamReset.parse(name) {
                controls.fault = .rstStream
                controls.streamReset = reset
            } else if let fault = Fault(rawValue: name) {
                controls.fault = fault
            } else {
                return .failure(ReplyFailure(.error(400, "unknown fault", [
                    ("value", .string(text)),
                    ("faults", .array(Fault.allCases.map { .string($0.rawValue) } + [.string("cut-after=N"), .string("rst-stream=CODE"),
                                                                                    .string("rst-stream-after=N[:CODE]")])),
                ])))
            }
        }
        if let text = value(request, header: "X-Stub-Throttle", query: "__throttle") {
            guard let rate = Int(text.trimmingASCIISpaces()), rate >= 1 else {
                return .failure(ReplyFailure(.error(400, "invalid throttle", [("value", .string(text)), ("expected", .string("bytes per second, at least 1"))])))
            }
            controls.throttleBytesPerSecond = rate
        }
        return .success(controls)
    }

    /// A control's value: its header, else its query parameter.
    private static func value(_ request: some RequestHead, header: String, query: String) -> String? {
        request.header(header) ?? request.queryValue(query)
    }
}

/// A request that cannot be served as asked, carrying the reply that explains why.
package struct ReplyFailure: Error, Sendable {
    /// The explaining reply.
    package var reply: Reply

    /// Wraps a reply.
    package init(_ reply: Reply) { self.reply = reply }
}

extension String {
    /// Without leading and trailing spaces and tabs; returns `self` when there are none (the usual case).
    func trimmingASCIISpaces() -> String {
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = utf8.first, let last = utf8.last, isSpace(first) || isSpace(last) else { return self }
        let bytes = utf8.drop(while: isSpace)
        return String(decoding: bytes[..<(bytes.lastIndex { !isSpace($0) }.map { bytes.index(after: $0) } ?? bytes.startIndex)], as: UTF8.self)
    }
}
