import CHiredis
@testable import StubFleet
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to the store, in this process, against stores the tests play.
@Suite(.timeLimit(.minutes(1))) struct StoreConnectionTests {
    @Test func aReplyOfATypeStubdDoesNotReadIsAProtocolError() throws {
        // 7 is a newer hiredis's RESP3 double; it must not read as a null ("no such key").
        var reply = redisReply()
        reply.type = 7
        try withUnsafeMutablePointer(to: &reply) { inner throws in
            let error = #expect(throws: StoreError.self) { try RedisConnection.convert(inner) }
            #expect(error?.description.hasPrefix("Protocol error") == true && error?.description.contains("type 7") == true, "\(String(describing: error))")
            // Inside an array too: the whole reply is refused, not the element dropped.
            var element: UnsafeMutablePointer<redisReply>? = inner
            try withUnsafeMutablePointer(to: &element) { slots throws in
                var array = redisReply()
                array.type = REDIS_REPLY_ARRAY
                array.elements = 1
                array.element = slots
                try withUnsafeMutablePointer(to: &array) { outer throws in
                    #expect(throws: StoreError.self) { try RedisConnection.convert(outer) }
                    inner.pointee.type = REDIS_REPLY_NIL
                    #expect(try RedisConnection.convert(outer) == .array([.null]))
                }
            }
        }
    }
}
