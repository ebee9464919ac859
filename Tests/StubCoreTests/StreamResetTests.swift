import StubCore
import Testing

/// The `rst-stream` fault's grammar, shared by variant files and `X-Stub-Fault`.
@Suite struct StreamResetTests {
    @Test func readsEveryForm() {
        #expect(StreamReset.parse("rst-stream") == .reset(StreamReset(code: 8)))
        #expect(StreamReset.parse("rst-stream=refused-stream") == .reset(StreamReset(code: 7)))
        #expect(StreamReset.parse("rst-stream=42") == .reset(StreamReset(code: 42)))
        #expect(StreamReset.parse("rst-stream-after=512") == .reset(StreamReset(code: 8, afterBytes: 512)))
        #expect(StreamReset.parse("rst-stream-after=0:no-error") == .reset(StreamReset(code: 0, afterBytes: 0)))
        #expect(StreamReset.parse("reset") == .none)
    }

    @Test func refusesBadCodesAndCounts() {
        for text in ["rst-stream=", "rst-stream=sideways", "rst-stream=-1", "rst-stream-after=", "rst-stream-after=-3", "rst-stream-after=x",
                     "rst-stream-after=5:nope", "rst-stream=4294967296"] {
            #expect(StreamReset.parse(text) == .invalid, "\(text)")
        }
    }
}
