#ifndef CSYSTEM_SHIM_H
#define CSYSTEM_SHIM_H

/* glibc's allocator controls, which the Glibc module does not export. */
#if defined(__GLIBC__) || defined(__linux__)
#include <malloc.h>

/* Keeps buffers over `bytes` in their own mappings, returned to the system when freed, and
   returns free heap memory over `trim` bytes; 0 when glibc refused. */
static inline int CSystem_return_large_buffers(int bytes, int trim) {
    return mallopt(M_MMAP_THRESHOLD, bytes) && mallopt(M_TRIM_THRESHOLD, trim);
}
#endif

#endif
