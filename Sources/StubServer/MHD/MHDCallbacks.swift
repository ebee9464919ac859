internal import CMicroHTTPD
import Glibc
import StubCore

// libmicrohttpd's callbacks, and the only place `MHD_Result` and the content-reader codes are
// used. They are file-scope functions that capture nothing: a closure formed in main-actor code
// would trap when MHD calls it from its own thread.

/// MHD's access handler: called several times per request. The first call only creates the
/// context (queueing on the first call makes MHD 0.9.75 drop keep-alive); body chunks are
/// collected; the final call hands over to the bridge, and so does every call after a resume.
func stubdAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls else { return .NO }
    guard let existing = conCls.pointee else {
        // Retained here, released in stubdRequestCompleted.
        conCls.pointee = Unmanaged.passRetained(RequestContext(startNs: MonotonicClock.now())).toOpaque()
        return .YES
    }
    let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        if let uploadData {
            uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadDataSize.pointee) {
                context.appendBody(UnsafeBufferPointer(start: $0, count: uploadDataSize.pointee))
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    let handle = MHDConnection(pointer: connection)
    if context.connection == nil {
        context.received(on: handle, method: method.map { String(cString: $0) } ?? "GET", path: url.map { String(cString: $0) } ?? "/")
    }
    let bridge = Unmanaged<RequestBridge>.fromOpaque(cls).takeUnretainedValue()
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
    if let cls { Unmanaged<RequestBridge>.fromOpaque(cls).takeUnretainedValue().completed(context) }
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

/// Iterator for `MHD_get_connection_values`: sets the Bool `cls` points at and stops at the first
/// header named `X-Stub-…` or query parameter named `__…`.
func stubdFindControlName(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let name = UnsafeBufferPointer(start: UnsafeRawPointer(key).assumingMemoryBound(to: UInt8.self), count: strlen(key))
    let isControl = kind == .HEADER_KIND ? ControlNames.isControlHeader(name) : ControlNames.isControlQuery(name)
    guard isControl else { return .YES }
    cls.assumingMemoryBound(to: Bool.self).pointee = true
    return .NO
}

/// MHD's content reader for throttled bodies.
func stubdThrottleRead(_ cls: UnsafeMutableRawPointer?, _ position: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ max: Int) -> Int {
    guard let cls, let buffer else { return ContentReaderCode.endWithError }
    let body = Unmanaged<ThrottledBody>.fromOpaque(cls).takeUnretainedValue()
    let into = UnsafeMutableRawBufferPointer(start: buffer, count: max)
    switch body.read(at: Int(position), into: into) {
    case .copied(let count): return count
    case .suspended: return 0
    case .end: return ContentReaderCode.endOfStream
    case .abort: return ContentReaderCode.endWithError
    }
}

/// MHD frees a throttled response: releases the body retained in `MHDResponse.init(pulling:)`.
func stubdThrottleFree(_ cls: UnsafeMutableRawPointer?) {
    guard let cls else { return }
    Unmanaged<ThrottledBody>.fromOpaque(cls).takeRetainedValue().responseFreed()
}

/// MHD_CONTENT_READER_END_OF_STREAM and _END_WITH_ERROR: C macros with casts, which Swift does not import.
private enum ContentReaderCode {
    static let endOfStream = -1
    static let endWithError = -2
}
