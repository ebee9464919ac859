/// The part of a body a `truncate` fault sends through libmicrohttpd (on TLS connections, where
/// bytes written to the socket directly would not be inside the TLS stream).
final class PartialBody: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Copies what is left from `offset` into `buffer`; 0 once all of it was sent.
    func copy(from offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard offset < bytes.count, let base = buffer.baseAddress else { return 0 }
        let count = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        return count
    }
}
