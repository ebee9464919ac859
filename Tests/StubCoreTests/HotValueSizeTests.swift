@testable import StubCore
import Testing

/// Values every request moves through each step of its life stay small: a large case added to
/// one of them makes every move a memcpy of the largest case, on every request. A WebSocket's
/// conversation, carried unboxed in `LifecycleAction.upgrade`, cost about 440 instructions per
/// plain GET (bench/instructions.py) before it was boxed.
struct HotValueSizeTests {
    @Test func aLifecycleActionFitsInHalfACacheLine() {
        #expect(MemoryLayout<LifecycleAction>.size <= 32, "a large case belongs boxed (indirect or a class)")
    }

    @Test func aPlanIsOneReference() {
        #expect(MemoryLayout<ResponsePlan>.size == MemoryLayout<AnyObject>.size)
    }
}
