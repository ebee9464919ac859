/// Reads the protocols a TLS client offers by ALPN from its ClientHello, which travels in the clear
/// before any key is agreed: the TLS port's front peeks at it to send a client offering `h2` to the
/// HTTP/2 engine and every other to libmicrohttpd, unread. Pure: it walks bytes and decides nothing
/// else (RFC 8446 §4.1.2, RFC 7301 §3.1).
package enum ClientHelloALPN {
    /// What the bytes peeked so far say.
    package enum Verdict: Equatable {
        /// The hello is not complete yet: peek again when more has arrived.
        case needMore
        /// A ClientHello whose ALPN list holds `h2`.
        case offersH2
        /// Anything else: a hello without `h2`, not TLS, an SSLv2-style hello, a hello split over
        /// records. libmicrohttpd sees it exactly as it would have.
        case other
    }

    /// The largest hello the front waits for: one TLS record (16 KiB) and its 5-byte header.
    package static let largestRecord = 16384 + 5

    /// Walks `bytes`, the start of what the client sent.
    package static func verdict(_ bytes: UnsafeRawBufferPointer) -> Verdict {
        guard bytes.count >= 5 else { return bytes.isEmpty || bytes[0] == 22 ? .needMore : .other }
        // A handshake record (22) of TLS 1.x.
        guard bytes[0] == 22, bytes[1] == 3 else { return .other }
        let record = Int(bytes[3]) << 8 | Int(bytes[4])
        // A record no TLS stack sends (RFC 8446 §5.1): libmicrohttpd refuses it at once.
        guard (4...16384).contains(record) else { return .other }
        guard bytes.count >= 9 else { return .needMore }
        // A ClientHello (1) that fits its record: one split over records goes to libmicrohttpd.
        guard bytes[5] == 1 else { return .other }
        let length = Int(bytes[6]) << 16 | Int(bytes[7]) << 8 | Int(bytes[8])
        guard length + 4 <= record else { return .other }
        guard bytes.count >= 9 + length else { return .needMore }
        var reader = Reader(bytes: bytes, at: 9, end: 9 + length)
        // Version and random, session id, cipher suites, compression methods.
        guard reader.skip(2 + 32), reader.skipVector(lengthBytes: 1), reader.skipVector(lengthBytes: 2),
              reader.skipVector(lengthBytes: 1), let extensionsLength = reader.number(bytes: 2) else { return .other }
        var extensions = Reader(bytes: bytes, at: reader.at, end: min(reader.end, reader.at + extensionsLength))
        while let type = extensions.number(bytes: 2), let size = extensions.number(bytes: 2) {
            let start = extensions.at
            guard extensions.skip(size) else { return .other }
            guard type == 16 else { continue }
            // ALPN: a 2-byte list length, then names each with a 1-byte length.
            var names = Reader(bytes: bytes, at: start + 2, end: start + size)
            while let count = names.number(bytes: 1) {
                let at = names.at
                guard names.skip(count) else { return .other }
                if count == 2 && bytes[at] == UInt8(ascii: "h") && bytes[at + 1] == UInt8(ascii: "2") { return .offersH2 }
            }
            return .other
        }
        return .other
    }

    /// A bounded walk over `bytes[at..<end]`.
    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at: Int
        let end: Int

        /// A big-endian number of `bytes` bytes, or nil past the end.
        mutating func number(bytes count: Int) -> Int? {
            guard at + count <= end else { return nil }
            var value = 0
            for index in at..<(at + count) { value = value << 8 | Int(bytes[index]) }
            at += count
            return value
        }

        mutating func skip(_ count: Int) -> Bool {
            guard count >= 0, at + count <= end else { return false }
            at += count
            return true
        }

        /// Skips a vector with a `lengthBytes`-byte length before it.
        mutating func skipVector(lengthBytes: Int) -> Bool {
            guard let count = number(bytes: lengthBytes) else { return false }
            return skip(count)
        }
    }
}
