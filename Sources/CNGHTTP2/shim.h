#ifndef CNGHTTP2_SHIM_H
#define CNGHTTP2_SHIM_H

#include <nghttp2/nghttp2.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stddef.h>

/* Options that distributions backport without changing the version number (Debian 12's 1.52.0
   has both; upstream added them in 1.57 and 1.61): looked up at run time, so a library without
   them still links, and one with them gets stubd's bounds. Each returns 1 when it was set. */

typedef void (*CNGHTTP2_rate_limit_setter)(nghttp2_option *, uint64_t, uint64_t);
typedef void (*CNGHTTP2_size_setter)(nghttp2_option *, size_t);

static inline int CNGHTTP2_set_stream_reset_rate_limit(nghttp2_option *option, uint64_t burst, uint64_t rate) {
    CNGHTTP2_rate_limit_setter set = (CNGHTTP2_rate_limit_setter)dlsym(RTLD_DEFAULT, "nghttp2_option_set_stream_reset_rate_limit");
    if (set == NULL) return 0;
    set(option, burst, rate);
    return 1;
}

static inline int CNGHTTP2_set_max_continuations(nghttp2_option *option, size_t count) {
    CNGHTTP2_size_setter set = (CNGHTTP2_size_setter)dlsym(RTLD_DEFAULT, "nghttp2_option_set_max_continuations");
    if (set == NULL) return 0;
    set(option, count);
    return 1;
}

#endif
