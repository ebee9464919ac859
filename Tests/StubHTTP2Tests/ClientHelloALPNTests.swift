import StubTransport
import Testing

/// The front's reading of a ClientHello: `h2` offered, not offered, not TLS, incomplete.
@Suite struct ClientHelloALPNTests {
    /// A ClientHello with `protocols` in its ALPN extension (none: no ALPN extension), beside a
    /// server name, as clients send them.
    static func hello(alpn protocols: [String]?) -> [UInt8] {
        var extensions: [UInt8] = []
        let name = Array("example.test".utf8)
        extensions += [0, 0] + u16(name.count + 5) + u16(name.count + 3) + [0] + u16(name.count) + name
        if let protocols {
            let list = protocols.flatMap { [UInt8($0.utf8.count)] + Array($0.utf8) }
            extensions += [0, 16] + u16(list.count + 2) + u16(list.count) + list
        }
        var body: [UInt8] = [3, 3] + [UInt8](repeating: 7, count: 32) + [0] + u16(2) + [0x13, 0x01] + [1, 0]
        body += u16(extensions.count) + extensions
        let handshake: [UInt8] = [1] + u24(body.count) + body
        return [22, 3, 1] + u16(handshake.count) + handshake
    }

    static func u16(_ n: Int) -> [UInt8] { [UInt8(n >> 8), UInt8(n & 0xff)] }
    static func u24(_ n: Int) -> [UInt8] { [UInt8(n >> 16), UInt8((n >> 8) & 0xff), UInt8(n & 0xff)] }

    static func verdict(_ bytes: [UInt8]) -> ClientHelloALPN.Verdict {
        bytes.withUnsafeBytes { ClientHelloALPN.verdict($0) }
    }

    @Test func offersH2() {
        #expect(Self.verdict(Self.hello(alpn: ["h2", "http/1.1"])) == .offersH2)
        #expect(Self.verdict(Self.hello(alpn: ["http/1.1", "h2"])) == .offersH2)
    }

    @Test func withoutH2() {
        #expect(Self.verdict(Self.hello(alpn: ["http/1.1"])) == .other)
        #expect(Self.verdict(Self.hello(alpn: ["h2c", "h3"])) == .other)
        #expect(Self.verdict(Self.hello(alpn: nil)) == .other)
    }

    @Test func partialHelloWaits() {
        let whole = Self.hello(alpn: ["h2"])
        for cut in [0, 1, 4, 5, 8, 9, whole.count - 1] {
            #expect(Self.verdict(Array(whole.prefix(cut))) == .needMore, "cut at \(cut)")
        }
    }

    @Test func notTLSGoesToLibmicrohttpd() {
        #expect(Self.verdict(Array("GET / HTTP/1.1\r\nHost: x\r\n\r\n".utf8)) == .other)
        #expect(Self.verdict(Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)) == .other)
        // An SSLv2-style hello, and a hello longer than its record (split over records).
        #expect(Self.verdict([0x80, 0x2e, 0x01, 0x03, 0x01, 0, 0, 0, 0]) == .other)
        var split = Self.hello(alpn: ["h2"])
        split[4] = 10
        #expect(Self.verdict(split) == .other)
    }

    /// Lengths that point past the hello are read as "other", never past the bytes.
    @Test func lyingLengthsStayInside() {
        let whole = Self.hello(alpn: ["h2"])
        for index in 9..<whole.count {
            var broken = whole
            broken[index] = 0xff
            _ = Self.verdict(broken)
        }
    }
}
