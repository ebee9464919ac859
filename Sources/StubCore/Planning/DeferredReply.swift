/// A reply made later, off the threads that serve requests, with no thread per waiting request:
/// work that blocks (a reload) runs on the transport's one worker thread; work that waits on
/// something else (an upstream's answer) starts at once and hands its reply over when it comes.
package struct DeferredReply: Sendable {
    /// How the reply is made.
    package enum Work: Sendable {
        /// Blocking work, run on the transport's worker thread.
        case blocking(@Sendable () -> Reply)
        /// Work that returns at once and calls `done` with the reply later, on any thread.
        case callback(@Sendable (_ done: @escaping @Sendable (Reply) -> Void) -> Void)
    }

    /// How the reply is made.
    package let work: Work

    /// A reply made by blocking work; may take long.
    package init(_ make: @escaping @Sendable () -> Reply) {
        work = .blocking(make)
    }

    /// A reply handed over later: `start` must not block.
    package init(start: @escaping @Sendable (_ done: @escaping @Sendable (Reply) -> Void) -> Void) {
        work = .callback(start)
    }
}
