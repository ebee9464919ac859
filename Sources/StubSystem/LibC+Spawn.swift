// posix_spawn(3) differs in its types between glibc (`posix_spawn_file_actions_t` is a struct,
// `environ` a declared global) and Darwin (an optional pointer, and `environ` undeclared), and in
// how a child is kept from inheriting descriptors: wrapped once here.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension LibC {
    /// Starts `executable` with `arguments` (argv[0] included) and `environment` (`NAME=value`
    /// entries; nil: this process's), its standard output and error on `stdout` and `stderr`.
    /// Every other descriptor is closed in the child, as Foundation's `Process` does, so it keeps
    /// no listening socket of this process's alive. Returns the child's pid.
    package static func spawn(_ executable: String, arguments: [String], environment: [String]?, stdout: Int32,
                              stderr: Int32) -> Result<pid_t, SystemCallError> {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            argv.forEach { free($0) }
            envp?.forEach { free($0) }
        }
        var child: pid_t = 0
        #if canImport(Glibc)
        var actions = posix_spawn_file_actions_t()
        #else
        var actions: posix_spawn_file_actions_t?
        #endif
        do { try SystemCall.pthread("posix_spawn_file_actions_init") { posix_spawn_file_actions_init(&actions) } } catch { return .failure(error) }
        defer { posix_spawn_file_actions_destroy(&actions) }
        do {
            // A child whose output is not where the caller reads it is not started.
            try SystemCall.pthread("posix_spawn_file_actions_adddup2") { posix_spawn_file_actions_adddup2(&actions, stdout, 1) }
            try SystemCall.pthread("posix_spawn_file_actions_adddup2") { posix_spawn_file_actions_adddup2(&actions, stderr, 2) }
        } catch {
            return .failure(error)
        }
        #if canImport(Glibc)
        closeOthers(&actions)
        let result = envp.map { posix_spawn(&child, executable, &actions, nil, argv, $0) } ?? posix_spawn(&child, executable, &actions, nil, argv, environ)
        #else
        var attributes: posix_spawnattr_t?
        do { try SystemCall.pthread("posix_spawnattr_init") { posix_spawnattr_init(&attributes) } } catch { return .failure(error) }
        defer { posix_spawnattr_destroy(&attributes) }
        // Darwin closes every descriptor the actions do not name; a child that would inherit them all is not started.
        do {
            try SystemCall.pthread("posix_spawnattr_setflags") { posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)) }
        } catch {
            return .failure(error)
        }
        let result = envp.map { posix_spawn(&child, executable, &actions, &attributes, argv, $0) }
            ?? posix_spawn(&child, executable, &actions, &attributes, argv, _NSGetEnviron().pointee)
        #endif
        return result == 0 ? .success(child) : .failure(SystemCallError(call: "posix_spawn \(executable)", errno: result))
    }

    #if canImport(Glibc)
    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later) is not in Swift's Glibc
    /// module, so it is looked up by name; without it the child inherits what is not close-on-exec.
    private static func closeOthers(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        // It fails only without memory; the child then inherits what is not close-on-exec, as without the call.
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
    #endif
}
