@testable import StubServer
import StubTransport
import Testing

/// The header-name check reads a bit table: it must say exactly what RFC 9110's token rule says,
/// for every byte.
@Suite(.timeLimit(.minutes(3))) struct TokenByteTests {
    @Test func theBitTableIsTheTokenRule() {
        let specials = Set("!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8.min...UInt8.max {
            let letterOrDigit = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
            #expect(RequestFraming.isTokenByte(byte) == (letterOrDigit || specials.contains(byte)), "byte \(byte)")
        }
    }
}
