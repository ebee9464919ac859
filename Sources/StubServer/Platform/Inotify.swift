import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Linux's inotify, the watcher's native way of hearing about edits. Elsewhere there is none:
/// `open` says so and the watcher scans (`--watch poll`, the path the test suite runs on Linux too).
enum Inotify {
    /// A non-blocking inotify descriptor, or -1 where inotify is missing.
    static func open() -> Int32 {
        #if os(Linux)
        return (try? SystemCall.run("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) ?? -1
        #else
        return -1
        #endif
    }

    /// Watches `folder` for the events a save makes (writes, renames, deletions); the watch
    /// descriptor, or nil when the folder cannot be watched.
    static func watch(_ fd: Int32, folder: String) -> Int32? {
        #if os(Linux)
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF)
        let wd = inotify_add_watch(fd, folder, mask)
        return wd < 0 ? nil : wd
        #else
        return nil
        #endif
    }

    /// Stops watching `wd` (already gone when its folder was deleted: the error is nothing to act on).
    static func unwatch(_ fd: Int32, _ wd: Int32) {
        #if os(Linux)
        // EINVAL for a watch the kernel removed with its folder: nothing to act on.
        _ = inotify_rm_watch(fd, wd)
        #endif
    }
}
