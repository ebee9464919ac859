internal import CMicroHTTPD
import StubCore
import StubTransport

/// One libmicrohttpd connection, as the bridge drives it: queue a response, suspend, resume, and
/// look up request values. Valid from the first access-handler call to the completion callback.
struct MHDConnection: @unchecked Sendable {
    // @unchecked: libmicrohttpd allows `resume` from any thread, which is why a handle crosses to
    // the timer thread; every other call here is made on the connection's own polling thread.
    let pointer: OpaquePointer

    init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    /// The connection whose address bits `handle` holds (see `handle`).
    init(handle: SuspensionHandle) {
        pointer = OpaquePointer(bitPattern: handle)!
    }

    /// The connection's address as plain bits, for `SuspendedConnections` and its timer.
    var handle: SuspensionHandle { UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) }

    /// Queues `response` with `status`; false when libmicrohttpd refuses (the connection then closes).
    func queue(status: Int, _ response: MHDResponse) -> Bool {
        queue(status: status, response.handle)
    }

    /// Queues a response whose owner the caller keeps alive until the call returns
    /// (libmicrohttpd counts its own reference from then on).
    func queue(status: Int, _ response: MHDResponse.Handle) -> Bool {
        MHD_queue_response(pointer, UInt32(status), response.pointer) == .YES
    }

    /// Stops processing this connection until `resume`; needs MHD_ALLOW_SUSPEND_RESUME.
    func suspend() {
        MHD_suspend_connection(pointer)
    }

    /// Lets libmicrohttpd call the handler again; any thread may call it.
    func resume() {
        MHD_resume_connection(pointer)
    }

    /// The first value of a request header, compared case-insensitively.
    func header(_ name: String) -> String? {
        let found = lookup(.HEADER_KIND, name)
        return found.present ? found.value.map { String(cString: $0) } ?? "" : nil
    }

    /// The first value of a query parameter (percent-decoded by libmicrohttpd), compared exactly;
    /// "" for a parameter given without `=`.
    func queryValue(_ name: String) -> String? {
        // MHD's own lookup ignores case; it is only the fast way to learn that the name is absent.
        guard lookup(.GET_ARGUMENT_KIND, name).present else { return nil }
        return values(.GET_ARGUMENT_KIND).first { $0.name == name }?.value
    }

    /// Every value of a query parameter, in order (percent-decoded by libmicrohttpd).
    func queryValues(_ name: String) -> [String] {
        guard lookup(.GET_ARGUMENT_KIND, name).present else { return [] }
        return values(.GET_ARGUMENT_KIND).compactMap { $0.name == name ? $0.value : nil }
    }

    /// Whether a query parameter name starts with `__`: one pass that stops at the first, instead
    /// of a lookup per control. (Header names are seen while the head is checked.)
    func hasControlQueryNames() -> Bool {
        var found = false
        // The count it returns says nothing the callback did not see (-1 only for no connection).
        withUnsafeMutablePointer(to: &found) { _ = MHD_get_connection_values(pointer, .GET_ARGUMENT_KIND, stubdFindControlName, $0) }
        return found
    }

    /// Every header, as received, through `RequestFraming` (names and values with their lengths,
    /// so a NUL inside a value is seen), and the query parameters counted in the same walk.
    func framing() -> RequestFraming {
        var framing = RequestFraming()
        // The count it returns says nothing the callback did not see (-1 only for no connection).
        withUnsafeMutablePointer(to: &framing) { _ = CMHD_query_and_headers(pointer, stubdFrameHeader, $0) }
        return framing
    }

    /// Packs the query parameters, then the headers, into `writer`, with their lengths: one walk
    /// (`CMHD_query_and_headers` gives them in that order).
    func pack(into writer: inout PackedRequest.Writer) {
        // The count it returns says nothing the callback did not see (-1 only for no connection).
        withUnsafeMutablePointer(to: &writer) { _ = CMHD_query_and_headers(pointer, stubdPackPair, $0) }
    }

    /// Every header in the order received.
    func headers() -> [(name: String, value: String)] { values(.HEADER_KIND) }

    /// Every query parameter in the order received.
    func queryParameters() -> [(name: String, value: String)] { values(.GET_ARGUMENT_KIND) }

    /// The size of the request head (request line and headers) as received.
    var headSize: Int { CMHD_request_header_size(pointer) }

    /// The client socket, for faults that act below HTTP.
    var socket: Int32? {
        let fd = CMHD_connection_fd(pointer)
        return fd < 0 ? nil : fd
    }

    /// Whether the name is present, and its value (nil for a query parameter without `=`).
    private func lookup(_ kind: MHD_ValueKind, _ name: String) -> (present: Bool, value: UnsafePointer<CChar>?) {
        var value: UnsafePointer<CChar>?
        var size = 0
        // withCString, not the implicit String-to-pointer conversion, which copies into a new array.
        let found = name.withCString { MHD_lookup_connection_value_n(pointer, kind, $0, name.utf8.count, &value, &size) }
        return (found == .YES, value)
    }

    private func values(_ kind: MHD_ValueKind) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        // MHD_get_connection_values calls back synchronously, while `pairs` is in scope; its count adds nothing.
        withUnsafeMutablePointer(to: &pairs) { _ = MHD_get_connection_values(pointer, kind, stubdCollectPair, $0) }
        return pairs
    }

    /// The method libmicrohttpd read, as a string: one of the common ones without making a
    /// string (compared as bytes), else normalized (`RequestMethod.normalized`).
    static func method(_ text: UnsafePointer<CChar>) -> String {
        let bytes = UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self)
        switch (bytes[0], bytes[1]) {
        case (UInt8(ascii: "G"), UInt8(ascii: "E")) where bytes[2] == UInt8(ascii: "T") && bytes[3] == 0: return "GET"
        case (UInt8(ascii: "P"), UInt8(ascii: "O")) where bytes[2] == UInt8(ascii: "S") && bytes[3] == UInt8(ascii: "T") && bytes[4] == 0: return "POST"
        default: return RequestMethod.normalized(String(cString: text))
        }
    }
}
