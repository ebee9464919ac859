/*
 * An LD_PRELOAD library that counts heap allocation calls: malloc, calloc, realloc,
 * posix_memalign, aligned_alloc and memalign (and free, for information), with relaxed atomics.
 * At process exit (a destructor, so the process must leave through exit()) it writes the totals,
 * one "name count" per line, to the file named by the environment variable STUBD_ALLOC_LOG.
 * Used by bench/allocs.py.
 *
 * dlsym() may itself call calloc or malloc before the real functions are known; those early
 * calls are served from a small static bump buffer whose blocks are never freed or reused.
 *
 * Build: gcc -O2 -shared -fPIC -o alloc-count.so alloc-count.c -ldl
 * Use:   STUBD_ALLOC_LOG=/tmp/allocs.txt LD_PRELOAD=./alloc-count.so PROGRAM ...
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum { MALLOC, CALLOC, REALLOC, POSIX_MEMALIGN, ALIGNED_ALLOC, MEMALIGN, FREE, KINDS };
static const char *const names[KINDS] = {"malloc", "calloc", "realloc", "posix_memalign", "aligned_alloc", "memalign", "free"};
static atomic_ulong counts[KINDS];

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_posix_memalign)(void **, size_t, size_t);
static void *(*real_aligned_alloc)(size_t, size_t);
static void *(*real_memalign)(size_t, size_t);
static void (*real_free)(void *);

static _Alignas(64) char bump[16384];
static atomic_size_t bump_used;
static __thread int resolving;

static void count(int kind) { atomic_fetch_add_explicit(&counts[kind], 1, memory_order_relaxed); }

static void *bump_alloc(size_t size) {
    size = (size + 63) & ~(size_t)63;
    size_t offset = atomic_fetch_add(&bump_used, size);
    if (offset + size > sizeof bump) {
        static const char msg[] = "alloc-count: bootstrap buffer exhausted\n";
        write(2, msg, sizeof msg - 1);
        abort();
    }
    return bump + offset; /* static storage: already zero, as calloc needs */
}

static int in_bump(const void *p) { return (const char *)p >= bump && (const char *)p < bump + sizeof bump; }

static void resolve(void) {
    resolving = 1;
    real_calloc = dlsym(RTLD_NEXT, "calloc");
    real_realloc = dlsym(RTLD_NEXT, "realloc");
    real_posix_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    real_aligned_alloc = dlsym(RTLD_NEXT, "aligned_alloc");
    real_memalign = dlsym(RTLD_NEXT, "memalign");
    real_free = dlsym(RTLD_NEXT, "free");
    void *(*m)(size_t) = dlsym(RTLD_NEXT, "malloc");
    __atomic_store_n(&real_malloc, m, __ATOMIC_RELEASE); /* last: it marks the others as ready */
    resolving = 0;
}

/* 1 when the real functions are ready, 0 when this call must be served from the bump buffer. */
static int ready(void) {
    if (__atomic_load_n(&real_malloc, __ATOMIC_ACQUIRE)) return 1;
    if (resolving) return 0;
    resolve();
    return 1;
}

__attribute__((constructor)) static void init(void) { ready(); }

void *malloc(size_t size) {
    if (!ready()) return bump_alloc(size);
    count(MALLOC);
    return real_malloc(size);
}

void *calloc(size_t n, size_t size) {
    if (!ready()) return bump_alloc(n * size);
    count(CALLOC);
    return real_calloc(n, size);
}

void *realloc(void *p, size_t size) {
    if (!ready()) return bump_alloc(size);
    count(REALLOC);
    if (in_bump(p)) { /* a bootstrap block moves to the real heap; its old size is unknown */
        void *q = real_malloc(size);
        size_t room = (size_t)(bump + sizeof bump - (char *)p);
        if (q) memcpy(q, p, size < room ? size : room);
        return q;
    }
    return real_realloc(p, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    if (!ready()) return (*out = bump_alloc(size)) ? 0 : 12;
    count(POSIX_MEMALIGN);
    return real_posix_memalign(out, alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    if (!ready()) return bump_alloc(size);
    count(ALIGNED_ALLOC);
    return real_aligned_alloc(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    if (!ready()) return bump_alloc(size);
    count(MEMALIGN);
    return real_memalign(alignment, size);
}

void free(void *p) {
    if (!p || in_bump(p)) return;
    if (!ready()) return;
    count(FREE);
    real_free(p);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("STUBD_ALLOC_LOG");
    if (!path) return;
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) return;
    char line[64];
    unsigned long total = 0;
    for (int k = 0; k < KINDS; k++) {
        unsigned long n = atomic_load(&counts[k]);
        if (k != FREE) total += n;
        int len = snprintf(line, sizeof line, "%s %lu\n", names[k], n);
        write(fd, line, (size_t)len);
    }
    int len = snprintf(line, sizeof line, "total %lu\n", total);
    write(fd, line, (size_t)len);
    close(fd);
}
