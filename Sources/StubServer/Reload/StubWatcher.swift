#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import StubCore
import StubSystem
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Watches a stub directory tree with inotify and calls `onChange` once per burst of edits
/// (editors write, rename and delete several files per save). Falls back to polling when
/// inotify is unavailable.
final class StubWatcher: @unchecked Sendable {
    // @unchecked: `thread` is written by `init` and by `stop` (after the thread was joined);
    // `watches` and `watchedRoot` are written by `init` before the thread starts and then only by
    // the watcher thread.
    /// Quiet time after the last event before reloading: one reload per save, not one per event.
    static let debounceMs = 40
    static let pollIntervalMs = 500

    private let root: String
    private let onChange: @Sendable () -> Void
    private let inotifyFD: Int32
    private var thread: StoppableThread?
    /// The inotify watch descriptors in use.
    private var watches: [Int32] = []
    /// The folder the watches are on, by device and inode: a root deleted, or replaced by a folder
    /// renamed into its place, is another folder, and its watches start again.
    private var watchedRoot: StubFiles.Identity?

    /// True when inotify is in use (false: polling).
    let usesInotify: Bool

    /// Watches `directory`; `forcePolling` scans even where inotify is available (the portable path,
    /// tested on Linux too).
    init(directory: String, forcePolling: Bool = false, onChange: @escaping @Sendable () -> Void) throws(SystemCallError) {
        root = directory
        self.onChange = onChange
        // Without inotify (some container file systems, other platforms) the watcher polls.
        inotifyFD = forcePolling ? -1 : Inotify.open()
        usesInotify = inotifyFD >= 0
        if usesInotify { rewatch() }
        do {
            // The polling baseline is taken here, before the caller goes on: an edit made right
            // after the server starts would otherwise be part of the baseline and never seen.
            let baseline = usesInotify ? [] : StubWatcher.fingerprint(of: directory)
            thread = try StoppableThread(name: "stubd-watch") { [self] stopFD in usesInotify ? runInotify(stopFD) : runPolling(stopFD, from: baseline) }
        } catch {
            if inotifyFD >= 0 { close(inotifyFD) }
            throw error
        }
    }

    /// Stops the watcher thread and waits for it.
    func stop() {
        guard let thread else { return }
        thread.stop()
        self.thread = nil
        if inotifyFD >= 0 { close(inotifyFD) }
    }

    /// Adds a watch on every folder the loader reads; new folders appear after each burst of
    /// events. When the root is no longer the folder watched (deleted, or another renamed into its
    /// place), the old watches go first; true when that happened.
    @discardableResult
    private func rewatch() -> Bool {
        let identity = StubFiles.identity(of: root)
        let replaced = identity != watchedRoot
        if replaced {
            for wd in watches { Inotify.unwatch(inotifyFD, wd) }
            watches = []
            watchedRoot = identity
        }
        guard identity != nil else { return replaced }
        let tree = StubTree.walk(root)
        for folder in tree.folders {
            // A folder that vanished since the walk has nothing to watch; the next burst rewalks.
            if let wd = Inotify.watch(inotifyFD, folder: tree.path(of: folder)), !watches.contains(wd) { watches.append(wd) }
        }
        return replaced
    }

    /// (path, size, mtime) of every entry in the folders the loader reads, for the polling fallback.
    static func fingerprint(of root: String) -> [String] {
        let tree = StubTree.walk(root)
        var out: [String] = []
        for folder in tree.folders {
            let path = tree.path(of: folder)
            for entry in folder.entries {
                var info = stat()
                let file = PathText.join(path, entry.name)
                guard stat(file, &info) == 0 else { continue }
                let modified = LibC.modified(info)
                out.append("\(file)|\(info.st_size)|\(modified.seconds).\(modified.nanoseconds)")
            }
        }
        return out
    }

    private func runInotify(_ stopFD: Int32) {
        var fds = [pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0), pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
        var pending = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            // Without a root to watch (deleted), nothing would ever wake the loop: look for it again
            // every poll interval.
            let wait = pending ? Int32(StubWatcher.debounceMs) : (watchedRoot == nil ? Int32(StubWatcher.pollIntervalMs) : -1)
            guard let ready = try? SystemCall.run("poll", { poll(&fds, 2, wait) }) else { return }
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
            } else if ready == 0 && watchedRoot == nil && rewatch() {
                onChange()
            }
        }
    }

    private func runPolling(_ stopFD: Int32, from baseline: [String]) {
        var last = baseline
        var fds = [pollfd(fd: stopFD, events: Int16(POLLIN), revents: 0)]
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
