internal import CMicroHTTPD

extension MHDResponse {
    /// Where libmicrohttpd keeps this response, as addresses for the cache to fetch before the
    /// response is queued (see `TransportHints`): the response object's first lines, then its
    /// headers' names and values, which writing the reply's head reads. libmicrohttpd's layout
    /// is not public, so these are hints only: the object's size is a guess, and an address that
    /// is wrong costs a wasted fetch, never a fault.
    var cacheLines: [UInt] {
        let base = UInt(bitPattern: UnsafeRawPointer(pointer))
        var lines: [UInt] = [base, base + 64, base + 128, base + 192]
        withUnsafeMutablePointer(to: &lines) { _ = MHD_get_response_headers(pointer, stubdNoteHeaderAddresses, $0) }
        return lines
    }
}
