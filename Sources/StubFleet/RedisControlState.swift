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

/// A fleet's control state in Valkey or Redis. Plain requests never wait for the store: they
/// read `StubControl`'s local copy, which a worker thread refreshes when a change notice comes
/// (or a version check, every 250 ms, finds one missed); journal entries go out in batches from a
/// bounded buffer. Sequence steps, holds and admin calls talk to the store on a thread of their
/// own (`perform`), in turn, over a connection of their own with a short timeout, while the
/// requests that need them wait suspended; while the store is away they fall back to local state
/// and the worker reconnects.
final class RedisControlState: SharedControlState, Sendable {
    let url: StateStoreURL
    /// This replica's name in the store (journal entries, holds, health).
    let replica: String
    /// Longest wait for the store on a request's or an admin call's behalf.
    static let callTimeoutMs = 300

    /// How long start waits for the store before serving from the stub files without it, and
    /// stop before giving up on it: SIGTERM must not wait for a store that does not answer.
    static let startWaitMs = 1500, stopWaitMs = 300
    /// Cuts every store call short while starting and stopping.
    let cutoff = StoreCutoff()

    let reachable = AtomicWord<Bool>(false)
    /// The connection calls for requests, admin calls and the Swift API use, under its lock.
    let calls = Locked<RedisConnection?>(nil)
    /// The thread that makes the calls for requests and admin calls, in turn (`perform`); nil
    /// before start, or when it could not be made (then they run on the calling thread).
    let caller = Locked<SerialWorker?>(nil)
    let control = Locked<WeakControl>(WeakControl())
    let stubDirectory = Locked<String>("")
    /// Set by a change notice; the worker refreshes the local copy.
    let refreshWanted = AtomicWord<Bool>(true)
    /// Wakes the worker for a refresh at once; nil when no pipe could be made (the 10 ms tick then).
    let wake = try? FleetWake()
    /// The newest version this replica wrote itself: a refresh that read an older one would
    /// undo that write locally, so it waits for the next.
    let writtenVersion = AtomicWord<Int>(0)
    /// The local journal's id up to which entries were sent to the store.
    let sentUpTo = AtomicWord<Int>(0)
    /// Entries the local journal let go before they could be sent (the store was away too long).
    let journalDropped = AtomicWord<Int>(0)
    /// Set when the store goes away; the first send after it counts what the journal let go.
    let wasAway = AtomicWord<Bool>(false)
    let touchedSessions = Locked<Set<String>>([])
    let status = Locked(StoreStatus())
    let threads = Locked<[StoppableThread]>([])
    /// Requests held here that the store lists, by list: checked once a second, so a release
    /// whose notice was missed still wakes them.
    let listed = Locked<[String: Set<UInt64>]>([:])

    /// A store at `url` for the replica named `replica`.
    init(url: StateStoreURL, replica: String) {
        self.url = url
        self.replica = replica
    }

    var isReachable: Bool { reachable.load(ordering: .relaxed) }

    var boundControl: StubControl? { control.withLock { $0.value } }

    func start(control: StubControl, stubDirectory: String, routes: Int) {
        self.control.withLock { $0.value = control }
        self.stubDirectory.withLock { $0 = stubDirectory }
        catalogChanged(ok: true, routes: routes)
        let worker = FleetWorker(store: self)
        // The first attempt is made here, so a store that answers is in use before the first
        // request; cut off after `startWaitMs`, so one that does not cannot keep the stub files
        // from being served (the worker goes on trying).
        cutoff.cut(inMilliseconds: RedisControlState.startWaitMs,
                   reason: "no whole answer within \(RedisControlState.startWaitMs) ms of starting (the store is slow or stalled)")
        defer { cutoff.lift() }
        worker.reconnect(now: MonotonicClock.now() / 1_000_000)
        if !isReachable {
            let why = status.withLock { $0.lastError } ?? "no answer"
            StandardStreams.write("stubd: warning: state store \(url.redacted) unreachable (\(why)); serving from the stub files and retrying\n", to: STDERR_FILENO)
        }
        // Subscribed before the first request too: no change or release notice may be missed.
        let subscriber = FleetSubscriber(store: self)
        if isReachable { subscriber.subscribe() }
        do {
            let made = try SerialWorker(name: "stubd-store")
            caller.withLock { $0 = made }
            let started = [try StoppableThread(name: "stubd-fleet") { worker.run(stopFD: $0) },
                           try StoppableThread(name: "stubd-subscribe") { subscriber.run(stopFD: $0) }]
            threads.withLock { $0 = started }
        } catch {
            status.withLock { $0.lastError = "cannot start the store's threads: \(error)" }
        }
    }

    func stop() {
        cutoff.cut(inMilliseconds: RedisControlState.stopWaitMs, reason: "stopping")
        let running = threads.withLock { t -> [StoppableThread] in defer { t = [] }; return t }
        for thread in running { thread.stop() }
        // Requests still waiting on it are resumed by the transport's stop, which comes first.
        caller.withLock { c in defer { c = nil }; return c }?.stop()
        _ = call { c throws(StoreError) in try c.command(["DEL", FleetKeys.replica(replica)]) }
        calls.withLock { $0 = nil }
        control.withLock { $0.value = nil }
    }

    /// Opens the call connection; true when the store answered.
    @discardableResult
    func connectCalls() -> Bool {
        do throws(StoreError) {
            let connection = try RedisConnection(url, timeoutMs: RedisControlState.callTimeoutMs, cutoff: cutoff)
            calls.withLock { $0 = connection }
            return true
        } catch {
            markDown(error)
            return false
        }
    }

    /// Runs `body` on the call connection; nil (and the store marked away) when it fails.
    func call<T>(_ body: (RedisConnection) throws(StoreError) -> T) -> T? {
        guard isReachable else { return nil }
        let outcome = calls.withLock { held -> Result<T, StoreError>? in
            guard let connection = held else { return nil }
            do throws(StoreError) { return .success(try body(connection)) } catch {
                held = nil
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let value)?: return value
        case .failure(let error)?:
            markDown(error)
            return nil
        case nil: return nil
        }
    }

    func perform(_ job: @escaping @Sendable () -> Void) {
        guard let thread = caller.withLock({ $0 }) else { return job() }
        thread.submit(job)
    }

    /// Asks the worker for a refresh now.
    func askRefresh() {
        refreshWanted.store(true, ordering: .relaxed)
        wake?.signal()
    }

    /// The store stopped answering: everything falls back to local state until the worker reconnects.
    func markDown(_ error: StoreError) {
        let wasUp = reachable.exchange(false, ordering: .relaxed)
        wasAway.store(true, ordering: .relaxed)
        status.withLock { s in
            s.lastError = error.description
            if wasUp || s.downSince == nil { s.downSince = Date() }
        }
        if wasUp {
            StandardStreams.write("stubd: state store \(url.redacted) unreachable (\(error)); serving from the last known state\n", to: STDERR_FILENO)
            boundControl?.noteChange()
        }
    }

    /// The worker reconnected and re-read the state.
    func markUp() {
        let wasDown = !reachable.exchange(true, ordering: .relaxed)
        let downSince = status.withLock { s -> Date? in
            defer { s.downSince = nil; s.lastError = nil }
            return s.downSince
        }
        if wasDown, downSince != nil {
            StandardStreams.write("stubd: state store \(url.redacted) reachable again\n", to: STDERR_FILENO)
        }
    }
}

/// A reference to the control that does not keep it alive (the control holds this store).
struct WeakControl: @unchecked Sendable {
    // @unchecked: StubControl is Sendable; a weak reference to it is read and written only under
    // the Locked that holds this box.
    weak var value: StubControl?
}

/// What health says of the store beyond reachability.
struct StoreStatus: Sendable {
    var lastError: String?
    var downSince: Date?
    /// Every replica's last report, as the worker last read them.
    var replicas: [ReplicaReport] = []
    /// This replica's stub set: a digest of the stub directory, whether the last load succeeded, routes.
    var stubs = ReplicaReport(name: "", stubs: "", reload: "ok", routes: 0)
    /// Overrides in the store this replica could not read (`scope route`), as the last read found.
    var unreadableOverrides: [String] = []
}
