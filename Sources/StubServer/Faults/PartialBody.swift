/// The part of a body a `truncate` fault sends through libmicrohttpd (on TLS connections, where
/// bytes written to the socket directly would not be inside the TLS stream). Once it is sent the
/// read aborts, and libmicrohttpd closes the connection short of the promised length.
final class PartialBody: PulledBody {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        super.init()
    }

    override func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        guard offset < bytes.count, let base = buffer.baseAddress else { return .abort }
        let count = min(buffer.count, bytes.count - offset)
        bytes.withUnsafeBytes { base.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        return .copied(count)
    }
}
