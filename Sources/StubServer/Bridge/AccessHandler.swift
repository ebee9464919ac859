import CMicroHTTPD
import StubCore

// libmicrohttpd's callbacks. They are file-scope functions that capture nothing: a closure formed
// in main-actor code would trap when MHD calls it from its own thread.

/// MHD's access handler: called several times per request. The first call only creates the
/// context (queueing on the first call makes MHD 0.9.75 drop keep-alive); body chunks are
/// collected; the final call hands over to the bridge.
func stubdAccessHandler(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?, _ version: UnsafePointer<CChar>?, _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?, _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let conCls else { return .NO }
    let bridge = Unmanaged<RequestBridge>.fromOpaque(cls).takeUnretainedValue()
    guard let existing = conCls.pointee else {
        // Retained here, released in stubdRequestCompleted.
        conCls.pointee = Unmanaged.passRetained(RequestContext(startNs: MonotonicClock.now())).toOpaque()
        return .YES
    }
    let context = Unmanaged<RequestContext>.fromOpaque(existing).takeUnretainedValue()
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        if let uploadData { context.appendBody(uploadData, count: uploadDataSize.pointee) }
        uploadDataSize.pointee = 0
        return .YES
    }
    let path = url.map { String(cString: $0) } ?? "/"
    let verb = method.map { String(cString: $0) } ?? "GET"
    return bridge.handle(ConnectionHandle(pointer: connection), context, method: verb, path: path)
}

/// MHD's completion callback: frees the per-request context, also when the client went away.
func stubdRequestCompleted(
    _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?,
    _ conCls: UnsafeMutablePointer<UnsafeMutableRawPointer?>?, _ reason: MHD_RequestTerminationCode
) {
    guard let conCls, let pointer = conCls.pointee else { return }
    if let cls {
        let bridge = Unmanaged<RequestBridge>.fromOpaque(cls).takeUnretainedValue()
        bridge.markResumed(Unmanaged<RequestContext>.fromOpaque(pointer).takeUnretainedValue())
    }
    Unmanaged<RequestContext>.fromOpaque(pointer).release()
    conCls.pointee = nil
}

/// Collects name/value pairs from MHD_get_connection_values.
final class PairCollector {
    var pairs: [(name: String, value: String)] = []

    static func read(_ connection: ConnectionHandle, kind: MHD_ValueKind) -> [(name: String, value: String)] {
        let collector = PairCollector()
        let box = Unmanaged.passUnretained(collector).toOpaque()  // the call is synchronous
        _ = MHD_get_connection_values(connection.pointer, kind, stubdCollectPair, box)
        return collector.pairs
    }
}

private func stubdCollectPair(
    _ cls: UnsafeMutableRawPointer?, _ kind: MHD_ValueKind, _ key: UnsafePointer<CChar>?, _ value: UnsafePointer<CChar>?
) -> MHD_Result {
    guard let cls, let key else { return .YES }
    let collector = Unmanaged<PairCollector>.fromOpaque(cls).takeUnretainedValue()
    collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}
