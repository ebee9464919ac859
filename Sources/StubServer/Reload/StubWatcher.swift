#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Glibc
import StubCore

/// Watches a stub directory tree with inotify and calls `onChange` once per burst of edits
/// (editors write, rename and delete several files per save). Falls back to polling when
/// inotify is unavailable.
final class StubWatcher: @unchecked Sendable {
    // @unchecked: `watched` and `thread` are touched by the watcher thread only, and by `stop`
    // after that thread has been told to end and joined; the rest is immutable.
    /// Quiet time after the last event before reloading: one reload per save, not one per event.
    static let debounceMs = 40
    static let pollIntervalMs = 500

    private let root: String
    private let onChange: @Sendable () -> Void
    private let inotifyFD: Int32
    private let stopPipe: (read: Int32, write: Int32)
    private var watched: Set<String> = []
    private var thread: pthread_t?

    /// True when inotify is in use (false: polling).
    let usesInotify: Bool

    init(directory: String, onChange: @escaping @Sendable () -> Void) throws(SystemCallError) {
        root = directory
        self.onChange = onChange
        var fds: [Int32] = [-1, -1]
        try SystemCall.run("pipe") { pipe(&fds) }
        stopPipe = (fds[0], fds[1])
        // Without inotify (some container file systems, other platforms) the watcher polls.
        inotifyFD = (try? SystemCall.run("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }) ?? -1
        usesInotify = inotifyFD >= 0
        if usesInotify { rewatch() }
        do {
            thread = try BackgroundThread.start { [self] in run() }
        } catch {
            closeDescriptors()
            throw error
        }
    }

    /// Stops the watcher thread and waits for it.
    func stop() {
        guard let thread else { return }
        var byte: UInt8 = 1
        _ = try? SystemCall.run("write") { write(stopPipe.write, &byte, 1) }
        pthread_join(thread, nil)
        self.thread = nil
        closeDescriptors()
    }

    private func closeDescriptors() {
        if inotifyFD >= 0 { close(inotifyFD) }
        close(stopPipe.read)
        close(stopPipe.write)
    }

    /// Adds a watch on every folder in the tree; new folders appear after each burst of events.
    private func rewatch() {
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB
            | IN_DELETE_SELF | IN_MOVE_SELF)
        for folder in [root] + StubWatcher.folders(under: root) {
            _ = inotify_add_watch(inotifyFD, folder, mask)
            watched.insert(folder)
        }
    }

    static func folders(under root: String) -> [String] {
        var out: [String] = []
        walk(root) { path, info in
            if (info.st_mode & S_IFMT) == S_IFDIR { out.append(path) }
        }
        return out
    }

    /// (path, size, mtime) of every entry, for the polling fallback.
    static func fingerprint(of root: String) -> [String] {
        var out: [String] = []
        walk(root) { path, info in
            out.append("\(path)|\(info.st_size)|\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec)")
        }
        return out.sorted()
    }

    /// Visits every entry below `root` (not following symlinked folders out of the tree twice).
    static func walk(_ root: String, depth: Int = 0, _ visit: (String, stat) -> Void) {
        guard depth < 16, let names = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for name in names {
            let path = root + "/" + name
            var info = stat()
            guard stat(path, &info) == 0 else { continue }
            visit(path, info)
            if (info.st_mode & S_IFMT) == S_IFDIR { walk(path, depth: depth + 1, visit) }
        }
    }

    private func run() {
        usesInotify ? runInotify() : runPolling()
    }

    private func runInotify() {
        var fds = [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0), pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        var pending = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            guard let ready = try? SystemCall.run("poll", { poll(&fds, 2, pending ? Int32(StubWatcher.debounceMs) : -1) }) else { return }
            if fds[1].revents != 0 { return }
            if ready > 0 && fds[0].revents != 0 {
                while buffer.withUnsafeMutableBytes({ read(inotifyFD, $0.baseAddress, $0.count) }) > 0 {}
                pending = true
                continue
            }
            if ready == 0 && pending {
                pending = false
                rewatch()
                onChange()
            }
        }
    }

    private func runPolling() {
        var last = StubWatcher.fingerprint(of: root)
        var fds = [pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0)]
        while true {
            guard let ready = try? SystemCall.run("poll", { poll(&fds, 1, Int32(StubWatcher.pollIntervalMs)) }), ready == 0 else { return }
            let now = StubWatcher.fingerprint(of: root)
            if now != last {
                last = now
                onChange()
            }
        }
    }
}
