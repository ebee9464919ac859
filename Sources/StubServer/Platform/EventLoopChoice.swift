/// Which way libmicrohttpd waits for sockets on this platform: epoll on Linux unless `.poll` was
/// asked for; poll(2) everywhere else (the path `--event-loop poll` runs on Linux too).
enum EventLoopChoice {
    /// Whether to wait with epoll.
    static func usesEpoll(_ loop: StubServerConfiguration.EventLoop) -> Bool {
        #if os(Linux)
        return loop == .native
        #else
        return false
        #endif
    }
}
