internal import CMicroHTTPD
import StubCore
import StubTransport
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// libmicrohttpd's callbacks, and the only place `MHD_Result` and the content-reader codes are
// used. They are file-scope functions that capture nothing: a closure formed in main-actor code
// would trap when MHD calls it from its own thread.

/// MHD's URI log callback: the request line has arrived. Makes the per-request context, with
/// the path as sent (MHD would decode it whole, `%2F` and `%00` included), and starts the head's
/// deadline. What it returns is the request's `con_cls`, which MHD also hands to the completion
/// callback when the handler is never called.
func stubdRequestStarted(_ cls: UnsafeMutableRawPointer?, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    guard let cls else { return nil }
    return Unmanaged<RequestBridge>.fromOpaque(cls)._withUnsafeGuaranteedRef { start($0, uri, connection) }
}

/// Makes the context of a request whose request line arrived.
private func start(_ bridge: RequestBridge, _ uri: UnsafePointer<CChar>?, _ connection: OpaquePointer?) -> UnsafeMutableRawPointer? {
    let admitted = connection.flatMap { CMHD_socket_context($0) }.map { Unmanaged<ConnectionAdmission.Connection>.fromOpaque($0).takeUnretainedValue() }
    let now = MonotonicClock.now()
    if let admitted { bridge.admission.headStarted(admitted, now: now) }
    let path = uri.map { RequestContext.path(ofTarget: $0) } ?? "/"
    // Retained here, released in stubdRequestCompleted.
    let secure = connection.map { CMHD_is_tls($0) } ?? false
    let context = RequestContext(startNs: now, path: path, maxBody: bridge.maxBody, admitted: admitted, secure: secure, budget: bridge.bodyBudget)
    context.targetLength = uri.map { strlen($0) } ?? 0
    if context.targetLength > bridge.maxHead, !secure, let connection, case let fd = CMHD_connection_fd(connection), fd >= 0 {
        bridge.refuseTarget(context, socket: fd)
    }
    return Unmanaged.passRetained(context).toOpaque()
}

/// MHD's access handler: called several times per request. The first call checks the head and
/// queues nothing unless it refuses the request (queueing on the first call makes MHD 0.9.75
/// close the connection, which is wanted only then); body chunks are collected; the final call
/// hands over to the bridge, and so does every call after a resume.
func stubdAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls, let existing = conCls.pointee else { return .NO }
    // Guaranteed references: the bridge lives as long as the daemon and the context until the
    // completion callback, so neither needs a retain for the length of this call.
    return Unmanaged<RequestBridge>.fromOpaque(cls)._withUnsafeGuaranteedRef { bridge in
        Unmanaged<RequestContext>.fromOpaque(existing)._withUnsafeGuaranteedRef { context in
            access(bridge, context, MHDConnection(pointer: connection), version: version, method: method, uploadData: uploadData,
                   uploadDataSize: uploadDataSize)
        }
    }
}

/// One access-handler call, with the request's bridge and context in hand.
private func access(
    _ bridge: RequestBridge, _ context: RequestContext, _ handle: MHDConnection, version: UnsafePointer<CChar>?,
    method: UnsafePointer<CChar>?, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>?
) -> MHD_Result {
    if !context.headChecked {
        let http10 = version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false
        return bridge.checkHead(handle, context, http10: http10) == .proceed ? .YES : .NO
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadDataSize.pointee) {
                context.appendBody(UnsafeBufferPointer(start: $0, count: uploadDataSize.pointee))
            }
        }
        if let admitted = context.admitted { bridge.admission.bodyProgress(admitted, count: uploadDataSize.pointee) }
        uploadDataSize.pointee = 0
        return context.bodyIsRunaway ? .NO : .YES
    }
    if context.connection == nil { context.received(on: handle, method: method.map(MHDConnection.method) ?? "GET") }
    return bridge.handle(handle, context) == .proceed ? .YES : .NO
}

/// MHD's completion callback: frees the per-request context, also when the client went away.
func stubdRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let conCls, let pointer = conCls.pointee else { return }
    let context = Unmanaged<RequestContext>.fromOpaque(pointer).takeRetainedValue()
    conCls.pointee = nil
    if let cls { Unmanaged<RequestBridge>.fromOpaque(cls)._withUnsafeGuaranteedRef { $0.completed(context) } }
}

/// MHD's accept policy: whether a new client may connect (see `ConnectionAdmission`). A refused
/// socket is closed at once, so a client over a limit learns it now, not after a backlog timeout.
func stubdAcceptPolicy(_ cls: UnsafeMutableRawPointer?, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> MHD_Result {
    guard let cls else { return .NO }
    let bridge = Unmanaged<RequestBridge>.fromOpaque(cls).takeUnretainedValue()
    return bridge.admission.admit(address.flatMap(ClientAddress.init), now: MonotonicClock.now()) ? .YES : .NO
}

/// MHD's connection callback: a connection opened or is closing. Its `ConnectionAdmission` entry
/// lives in the socket context from one to the other.
func stubdConnectionChanged(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ change: MHD_ConnectionNotificationCode
) {
    guard let cls, let connection, let socketContext else { return }
    let bridge = Unmanaged<RequestBridge>.fromOpaque(cls).takeUnretainedValue()
    let admission = bridge.admission
    switch change {
    case .CONNECTION_NOTIFY_STARTED:
        let address = CMHD_client_address(connection).flatMap(ClientAddress.init)
        let fd = CMHD_connection_fd(connection)
        // A client that stops reading its answer is cut off by the kernel (no timer here reads the clock).
        if let limit = bridge.stalledSendLimitMs { _ = try? LibC.abortStalledSends(fd, afterMs: limit) }
        let entry = admission.opened(fd: fd, address: address, now: MonotonicClock.now())
        // Retained here, released when the connection closes.
        socketContext.pointee = Unmanaged.passRetained(entry).toOpaque()
    case .CONNECTION_NOTIFY_CLOSED:
        guard let pointer = socketContext.pointee else { return }
        admission.closed(Unmanaged<ConnectionAdmission.Connection>.fromOpaque(pointer).takeRetainedValue())
        socketContext.pointee = nil
    default:
        return
    }
}

/// Iterator for `MHD_get_connection_values_n`: feeds each header, with its length, to the
/// `RequestFraming` `cls` points at.
func stubdFrameHeader(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let framing = cls.assumingMemoryBound(to: RequestFraming.self)
    guard kind == .HEADER_KIND else {
        framing.pointee.countQueryPair()
        return .YES
    }
    let name = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: keySize)
    let bytes = UnsafeBufferPointer(start: value.map { UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self) }, count: value == nil ? 0 : valueSize)
    // Only a library that cannot be asked to refuse folding (0.9.75) needs looking for it.
    if !MHDLibrary.refusesMalformedHeads && MHDLegacyFolding.wasFolded(name: name, value: bytes) { framing.pointee.foldedLine(in: name) }
    framing.pointee.add(name: name, value: bytes)
    return .YES
}

/// Iterator for `MHD_get_connection_values_n`: packs each query parameter or header (by `kind`)
/// into the `PackedRequest.Writer` `cls` points at.
func stubdPackPair(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ keySize: Int,
    _ value: UnsafePointer<CChar>?, _ valueSize: Int
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let writer = cls.assumingMemoryBound(to: PackedRequest.Writer.self)
    let name = UnsafeRawBufferPointer(start: key, count: keySize)
    let bytes = UnsafeRawBufferPointer(start: value, count: value == nil ? 0 : valueSize)
    if kind == .GET_ARGUMENT_KIND { writer.pointee.addQuery(name: name, value: bytes) } else { writer.pointee.addHeader(name: name, value: bytes) }
    return .YES
}

/// Iterator for `MHD_get_connection_values`: appends each pair to the array `cls` points at.
func stubdCollectPair(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let pairs = cls.assumingMemoryBound(to: [(name: String, value: String)].self)
    pairs.pointee.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

/// Iterator for `MHD_get_connection_values` over query parameters: sets the Bool `cls` points at
/// and stops at the first name starting with `__` (header names are seen by `RequestFraming`).
func stubdFindControlName(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let name = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: strlen(key))
    guard ControlNames.isControlQuery(name) else { return .YES }
    cls.assumingMemoryBound(to: Bool.self).pointee = true
    return .NO
}

/// MHD's content reader for every pulled body (throttled, streamed, truncated).
func stubdPulledRead(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    guard let cls, let buffer else { return ContentReaderCode.endWithError }
    let body = Unmanaged<PulledBody>.fromOpaque(cls).takeUnretainedValue()
    return ContentReaderCode.of(body.read(at: Int(position), into: UnsafeMutableRawBufferPointer(start: buffer, count: max)))
}

/// MHD frees a pulled response: the body hears of it and the retain taken in
/// `MHDResponse.init(pulling:)` is released.
func stubdPulledFree(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<PulledBody>.fromOpaque(cls).takeRetainedValue().responseFreed()
}

/// MHD_CONTENT_READER_END_OF_STREAM and _END_WITH_ERROR: C macros with casts, which Swift does not import.
private enum ContentReaderCode {
    static let endOfStream = -1
    static let endWithError = -2

    /// What a content reader returns for one read: bytes copied, 0 while suspended, or an end.
    static func of(_ result: PulledBody.ReadResult) -> Int {
        switch result {
        case .copied(let count): return count
        case .suspended: return 0
        case .end: return endOfStream
        case .abort: return endWithError
        }
    }
}
