import StubCore
import Testing

/// What a `Range` header asks of a body (RFC 9110 §14.1.2), where nginx is the reference for
/// what a header that does not parse gets.
@Suite struct ByteRangeTests {
    func asked(_ header: String?, _ total: Int = 100) -> ByteRange.Asked { ByteRange.asked(by: header, total: total) }
    func range(_ first: Int, _ last: Int, _ total: Int = 100) -> ByteRange.Asked { .range(ByteRange(first: first, last: last, total: total)) }

    @Test func rangesAndTheirEdges() {
        #expect(asked(nil) == .whole)
        #expect(asked("bytes=0-0") == range(0, 0))
        #expect(asked("bytes=99-") == range(99, 99))
        #expect(asked("bytes=-1000") == range(0, 99))     // a suffix longer than the body: all of it
        #expect(asked("Bytes=10-19") == range(10, 19))  // the unit is case-insensitive
        #expect(asked("bytes=100-") == .unsatisfiable)
        #expect(asked("bytes=-0") == .unsatisfiable)
        #expect(asked("bytes=0-", 0) == .unsatisfiable)   // an empty body has no byte to send
        #expect(asked("bytes=5-4") == .unsatisfiable)
        #expect(asked("bytes=x-4") == .unsatisfiable)
        #expect(asked("bytes=4") == .unsatisfiable)
        #expect(asked("bytes=0-1,4-5") == .whole)
        #expect(asked("lines=0-1") == .whole)
        #expect(asked("bytes=99999999999999999999-") == .unsatisfiable)
    }
}
