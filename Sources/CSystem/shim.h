#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H

#include <stdbool.h>
#include <stdint.h>

/* Asks the CPU to bring the cache line at `address` in, to be written soon. A hint: it never
   faults, whatever the address. */
static inline void CSystem_prefetch_for_writing(const void *address) {
    __builtin_prefetch(address, 1, 3);
}

/* Asks the CPU to bring the cache line at `address` in, to be read soon. A hint: it never faults. */
static inline void CSystem_prefetch_for_reading(const void *address) {
    __builtin_prefetch(address, 0, 3);
}

/* One 64-bit word read and written atomically, for StubSystem's AtomicWord (Swift's own Atomic
   needs macOS 15). `order` is one of the __ATOMIC_* orders; callers pass a constant, which the
   compiler folds once the function is inlined. */
static inline uint64_t CSystem_atomic_load(const uint64_t *word, int order) {
    return __atomic_load_n(word, order);
}

static inline void CSystem_atomic_store(uint64_t *word, uint64_t value, int order) {
    __atomic_store_n(word, value, order);
}

static inline uint64_t CSystem_atomic_exchange(uint64_t *word, uint64_t value, int order) {
    return __atomic_exchange_n(word, value, order);
}

/* Adds `value` (wrapping) and returns the word as it was before. */
static inline uint64_t CSystem_atomic_fetch_add(uint64_t *word, uint64_t value, int order) {
    return __atomic_fetch_add(word, value, order);
}

/* Writes `desired` when the word holds `*expected`; otherwise stores what it holds in `*expected`.
   True when it wrote. A failed exchange reads with relaxed order. */
static inline bool CSystem_atomic_compare_exchange(uint64_t *word, uint64_t *expected, uint64_t desired, int order) {
    return __atomic_compare_exchange_n(word, expected, desired, false, order, __ATOMIC_RELAXED);
}

/* glibc's allocator controls, which the Glibc module does not export. */
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>

/* The bytes the allocator gave the block at `pointer` (at least what was asked for). */
static inline size_t CSystem_allocated_bytes(const void *pointer) {
    return malloc_usable_size((void *)pointer);
}

/* Keeps buffers over `bytes` in their own mappings, returned to the system when freed, and
   returns free heap memory over `trim` bytes; 0 when glibc refused. */
static inline int CSystem_return_large_buffers(int bytes, int trim) {
    return mallopt(M_MMAP_THRESHOLD, bytes) && mallopt(M_TRIM_THRESHOLD, trim);
}
#endif

#if defined(__APPLE__)
#include <malloc/malloc.h>

/* The bytes the allocator gave the block at `pointer` (at least what was asked for). */
static inline size_t CSystem_allocated_bytes(const void *pointer) {
    return malloc_size(pointer);
}
#endif

/* Names the calling thread: what a stack dump and `top -H` show. Linux keeps 15 bytes (callers
   cut the name); glibc declares pthread_setname_np only under _GNU_SOURCE, so it is declared
   here, as glibc exports it. */
#include <pthread.h>
#if defined(__linux__)
int pthread_setname_np(pthread_t thread, const char *name);
static inline void CSystem_name_this_thread(const char *name) {
    (void)pthread_setname_np(pthread_self(), name);
}
#elif defined(__APPLE__)
static inline void CSystem_name_this_thread(const char *name) {
    (void)pthread_setname_np(name);
}
#endif

/* The calling thread's identity as a number: pthread_t is an integer on Linux and a pointer on
   Darwin, and both fit. Only compared for equality. */
static inline uintptr_t CSystem_this_thread(void) {
    return (uintptr_t)pthread_self();
}

#if defined(__linux__)
#include <sys/epoll.h>
#include <sys/socket.h>

/* accept4(2) is declared only under _GNU_SOURCE, which Swift's Glibc module does not set; the
   kernel call itself is in every Linux libc. A non-blocking, close-on-exec socket, or -1. */
extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
static inline int CSystem_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/* epoll for the hang-up watcher and the WebSocket hub. `struct epoll_event` is packed on x86-64, which Swift cannot
   lay out, so these take and give plain values. */

/* A new epoll descriptor (close-on-exec), or -1 with errno set. */
static inline int CSystem_epoll_create(void) {
    return epoll_create1(EPOLL_CLOEXEC);
}

/* Watches `fd` for a peer hang-up (read side closed, or both), once: the entry then stays
   disabled until deleted. `data` comes back from CSystem_epoll_wait. */
static inline int CSystem_epoll_watch_hangup(int epfd, int fd, uint64_t data) {
    struct epoll_event event = { .events = EPOLLRDHUP | EPOLLHUP | EPOLLONESHOT, .data.u64 = data };
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

/* Watches `fd` for input (the watcher's own stop pipe). */
static inline int CSystem_epoll_watch_input(int epfd, int fd, uint64_t data) {
    struct epoll_event event = { .events = EPOLLIN, .data.u64 = data };
    return epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event);
}

static inline int CSystem_epoll_forget(int epfd, int fd) {
    return epoll_ctl(epfd, EPOLL_CTL_DEL, fd, NULL);
}

/* Watches `fd` (level-triggered) for input when `read`, for room to write when `write`; adds it
   when `add`, else changes what it is watched for. Hang-ups and errors are always reported. */
static inline int CSystem_epoll_watch_io(int epfd, int fd, bool add, bool read, bool write, uint64_t data) {
    struct epoll_event event = { .events = (read ? EPOLLIN : 0) | (write ? EPOLLOUT : 0), .data.u64 = data };
    return epoll_ctl(epfd, add ? EPOLL_CTL_ADD : EPOLL_CTL_MOD, fd, &event);
}

/* Like CSystem_epoll_wait, with what each descriptor is ready for in `ready`: 1 to read (input,
   a hang-up or an error), 2 to write, 3 both. */
static inline int CSystem_epoll_wait_io(int epfd, uint64_t *datas, uint8_t *ready, int capacity, int timeout_ms) {
    struct epoll_event events[256];
    int n = epoll_wait(epfd, events, capacity < 256 ? capacity : 256, timeout_ms);
    for (int i = 0; i < n; i++) {
        datas[i] = events[i].data.u64;
        ready[i] = ((events[i].events & (EPOLLIN | EPOLLHUP | EPOLLERR)) ? 1 : 0) | ((events[i].events & EPOLLOUT) ? 2 : 0);
    }
    return n;
}

/* Waits for events; writes each one's data into `datas` (room for `capacity`); returns how
   many, or -1 with errno set. */
static inline int CSystem_epoll_wait(int epfd, uint64_t *datas, int capacity, int timeout_ms) {
    struct epoll_event events[64];
    int n = epoll_wait(epfd, events, capacity < 64 ? capacity : 64, timeout_ms);
    for (int i = 0; i < n; i++) datas[i] = events[i].data.u64;
    return n;
}
#endif

#endif
