import StubCore
import StubSystem

/// State values and collections in Valkey or Redis, shared by every replica on it. Each space
/// of a scope is a hash (`stubd:mem:<scope>|<space>`: field → `<order><TAB><json>`, and the
/// empty field marking it written); each commit is one script, so a compare-and-set is atomic
/// across the fleet and two replicas changing one object at once never lose either change.
/// Requests are planned on the store's own threads only (`perform`), each with its connection:
/// requests that remember wait for them suspended, as sequence steps do. Several threads keep
/// several calls in flight (one thread waits a round trip per call: 39k plans a second on one
/// connection here, where a local collection answers 124k). A store that does not answer within
/// its deadline fails the call, and the request gets a 503 (as overrides do).
final class RedisMemoryStore: MemoryStore, Sendable {
    let url: StateStoreURL
    /// Threads planning requests that remember.
    static let threads = 4
    /// One connection per worker, and the last for calls from any other thread (the admin API's).
    private let connections: [Locked<RedisConnection?>]
    private let workers: [SerialWorker]
    /// Each worker's thread, once it ran a job, to its connection's index.
    private let workerThreads = Locked<[UInt: Int]>([:])
    private let nextWorker = Locked(0)
    /// Seconds a session's keys live after a change (its spaces, counters and their list).
    private let sessionTTL = AtomicWord<Int>(600)

    init(url: StateStoreURL) {
        self.url = url
        workers = (0..<RedisMemoryStore.threads).compactMap { _ in try? SerialWorker(name: "stubd-memory") }
        connections = (0...workers.count).map { _ in Locked<RedisConnection?>(nil) }
        let threads = workerThreads
        for (i, worker) in workers.enumerated() { worker.submit { threads.withLock { $0[LibC.thisThread()] = i } } }
    }

    deinit { for worker in workers { worker.stop() } }

    var isRemote: Bool { true }

    var callableHere: Bool {
        workers.isEmpty || workerThreads.withLock { $0[LibC.thisThread()] } != nil
    }

    func perform(_ job: @escaping @Sendable () -> Void) {
        guard !workers.isEmpty else { return job() }
        let turn = nextWorker.withLock { n -> Int in
            defer { n = (n + 1) % workers.count }
            return n
        }
        workers[turn].submit(job)
    }

    /// Runs `body` on the calling thread's connection (opened when needed); a failure drops it
    /// for the next call.
    private func call<T>(_ body: (RedisConnection) throws(StoreError) -> T) throws(MemoryError) -> T {
        let mine = workerThreads.withLock { $0[LibC.thisThread()] } ?? connections.count - 1
        let outcome = connections[mine].withLock { held -> Result<T, StoreError> in
            do throws(StoreError) {
                let c: RedisConnection
                if let open = held { c = open } else { c = try RedisConnection(url, timeoutMs: RedisControlState.callTimeoutMs) }
                held = c
                return .success(try body(c))
            } catch {
                held = nil
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw MemoryError("the state store \(url.redacted) did not answer: \(error.description)")
        }
    }

    static func key(_ space: MemorySpace, _ scope: Scope) -> String { "stubd:mem:" + FleetKeys.scopeKey(scope) + "|" + space.key }
    static func counter(_ space: MemorySpace, _ scope: Scope) -> String { "stubd:memn:" + FleetKeys.scopeKey(scope) + "|" + space.key }
    static func spaces(_ scope: Scope) -> String { "stubd:memspaces:" + FleetKeys.scopeKey(scope) }

    static func encode(_ field: StoredField) -> String { "\(field.order)\t\(field.json)" }
    static func decode(_ text: String) -> StoredField? {
        guard let tab = text.firstIndex(of: "\t"), let order = Int(text[..<tab]) else { return nil }
        return StoredField(order: order, json: String(text[text.index(after: tab)...]))
    }

    func fields(_ space: MemorySpace, scope: Scope) throws(MemoryError) -> [String: StoredField]? {
        let reply = try call { c throws(StoreError) in try c.command(["HGETALL", RedisMemoryStore.key(space, scope)]) }
        let items = reply.elements
        guard !items.isEmpty else { return nil }
        var out: [String: StoredField] = [:]
        for i in stride(from: 0, to: items.count - 1, by: 2) {
            guard let name = items[i].text, !name.isEmpty, let field = items[i + 1].text.flatMap(RedisMemoryStore.decode) else { continue }
            out[name] = field
        }
        return out
    }

    func ordered(_ space: MemorySpace, scope: Scope) throws(MemoryError) -> [StoredField]? {
        try fields(space, scope: scope).map { $0.values.sorted { $0.order < $1.order } }
    }

    func field(_ key: String, of space: MemorySpace, scope: Scope) throws(MemoryError) -> FieldRead {
        let reply = try call { c throws(StoreError) in try c.command(["HMGET", RedisMemoryStore.key(space, scope), "", key]) }
        let items = reply.elements
        guard items.count == 2, items[0] != .null else { return .unwritten }
        guard let field = items[1].text.flatMap(RedisMemoryStore.decode) else { return .absent }
        return .value(field)
    }

    func commit(_ writes: [FieldWrite], to space: MemorySpace, scope: Scope, seed: [String: StoredField]?, limit: Int?) throws(MemoryError) -> CommitOutcome {
        var arguments = [RedisMemoryStore.key(space, scope), RedisMemoryStore.spaces(scope), space.key, String(writes.count), ttl(scope),
                         limit.map(String.init) ?? ""]
        for write in writes {
            arguments += [write.key, write.checks ? "1" : "0", write.expected.map(RedisMemoryStore.encode) ?? "",
                          write.new.map(RedisMemoryStore.encode) ?? ""]
        }
        if let seed {
            arguments.append("seed")
            for (key, field) in seed { arguments += [key, RedisMemoryStore.encode(field)] }
        }
        let reply = try call { c throws(StoreError) in try RedisMemoryStore.commitScript.run(on: c, keys: 2, arguments) }
        switch reply.text {
        case "done": return .done
        case "conflict": return .conflict
        case "needsSeed": return .needsSeed
        case "full": return .full
        default: throw MemoryError("the state store refused a change: \(reply)")
        }
    }

    func nextNumber(_ space: MemorySpace, scope: Scope, floor: Int) throws(MemoryError) -> Int {
        let reply = try call { c throws(StoreError) in
            try RedisMemoryStore.counterScript.run(on: c, keys: 2, [RedisMemoryStore.counter(space, scope), RedisMemoryStore.spaces(scope), String(floor),
                                                                    space.key, ttl(scope)])
        }
        guard let n = reply.int else { throw MemoryError("the state store gave no number: \(reply)") }
        return n
    }

    func reset(_ scope: Scope, space: MemorySpace?) throws(MemoryError) {
        let spaces: [MemorySpace]
        if let space { spaces = [space] } else { spaces = try writtenSpaces(scope: scope) }
        var keys = spaces.flatMap { [RedisMemoryStore.key($0, scope), RedisMemoryStore.counter($0, scope)] }
        if space == nil { keys.append(RedisMemoryStore.spaces(scope)) }
        guard !keys.isEmpty else { return }
        _ = try call { c throws(StoreError) in try c.command(["DEL"] + keys) }
        if let space { _ = try call { c throws(StoreError) in try c.command(["SREM", RedisMemoryStore.spaces(scope), space.key]) } }
    }

    func expireSessions(afterSeconds seconds: Int) { sessionTTL.store(seconds, ordering: .relaxed) }

    /// The expiry sent with a change: a session's keys go after the TTL; the global scope's stay.
    private func ttl(_ scope: Scope) -> String {
        if case .session = scope { return String(sessionTTL.load(ordering: .relaxed)) }
        return "0"
    }

    func writtenSpaces(scope: Scope) throws(MemoryError) -> [MemorySpace] {
        try call { c throws(StoreError) in try c.command(["SMEMBERS", RedisMemoryStore.spaces(scope)]) }.elements.compactMap { $0.text.flatMap(MemorySpace.init(key:)) }
    }

    /// KEYS: the space's hash, the scope's set of spaces. ARGV: the space's name, the number of
    /// writes, the seconds a session's keys live (0: for ever), the most fields the space may hold
    /// ("" for no bound), then per write its field, whether it checks, what it expects ("" for
    /// absent) and its new value ("" removes it); then `seed` and field/value pairs when the caller
    /// sends it.
    static let commitScript = StoreScript("""
        local h = KEYS[1]
        local n = tonumber(ARGV[2])
        if redis.call('HEXISTS', h, '') == 0 then
          local s = 5 + n * 4
          if ARGV[s] ~= 'seed' then return {ok = 'needsSeed'} end
          for i = s + 1, #ARGV - 1, 2 do redis.call('HSET', h, ARGV[i], ARGV[i + 1]) end
          redis.call('HSET', h, '', '1')
          redis.call('SADD', KEYS[2], ARGV[1])
        end
        for i = 0, n - 1 do
          local b = 5 + i * 4
          if ARGV[b + 1] == '1' then
            local current = redis.call('HGET', h, ARGV[b])
            if ARGV[b + 2] == '' then
              if current then return {ok = 'conflict'} end
            elseif current ~= ARGV[b + 2] then
              return {ok = 'conflict'}
            end
          end
        end
        if ARGV[4] ~= '' then
          local added = 0
          for i = 0, n - 1 do
            local b = 5 + i * 4
            if ARGV[b + 3] ~= '' and ARGV[b + 2] == '' then added = added + 1 end
          end
          if redis.call('HLEN', h) - 1 + added > tonumber(ARGV[4]) then return {ok = 'full'} end
        end
        for i = 0, n - 1 do
          local b = 5 + i * 4
          if ARGV[b + 3] == '' then redis.call('HDEL', h, ARGV[b]) else redis.call('HSET', h, ARGV[b], ARGV[b + 3]) end
        end
        if tonumber(ARGV[3]) > 0 then
          redis.call('EXPIRE', h, ARGV[3])
          redis.call('EXPIRE', KEYS[2], ARGV[3])
        end
        return {ok = 'done'}
        """)

    /// KEYS: the counter, the scope's set of spaces. ARGV: the floor, the space's name, the TTL.
    static let counterScript = StoreScript("""
        local c = tonumber(redis.call('GET', KEYS[1]) or '0')
        local f = tonumber(ARGV[1])
        if c < f then c = f end
        c = c + 1
        redis.call('SET', KEYS[1], c)
        redis.call('SADD', KEYS[2], ARGV[2])
        if tonumber(ARGV[3]) > 0 then
          redis.call('EXPIRE', KEYS[1], ARGV[3])
          redis.call('EXPIRE', KEYS[2], ARGV[3])
        end
        return c
        """)
}
