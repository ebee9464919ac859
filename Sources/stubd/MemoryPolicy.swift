#if canImport(Glibc)
import CSystem
#endif

/// How the daemon's allocator treats large buffers.
enum MemoryPolicy {
    /// Request bodies of hundreds of KiB come and go in waves (uploads held through a delay).
    /// glibc raises its mmap threshold each time such a buffer is freed, after which large buffers
    /// come from the heap and their memory is kept after `free`: a wave of 300 one-MiB uploads
    /// left the process at 829 MB. A fixed threshold keeps buffers over 128 KiB in their own
    /// mappings, returned to the system when freed. Only the daemon sets it: an in-process
    /// `StubServer` leaves its host's allocator alone. Other platforms' allocators return large
    /// blocks already.
    static func returnLargeBuffers() {
        #if canImport(Glibc)
        // mallopt refuses only values out of its range, which these are not; glibc's own policy stays then.
        _ = CSystem_return_large_buffers(128 * 1024, 1 << 20)
        #endif
    }
}
