#ifndef CALLOCCOUNTER_H
#define CALLOCCOUNTER_H
#include <stdint.h>

/// Allocation counters for the benchmark runner.
///
/// The runner executable defines malloc, calloc, realloc, free,
/// posix_memalign, aligned_alloc and memalign itself (CAllocCounter.c); the
/// dynamic linker resolves every library's calls to the executable's
/// definitions, which forward to glibc's __libc_* entry points. Counting is
/// off until cac_start() and costs one relaxed load per call while off.
typedef struct {
    int64_t allocations;     // malloc-family calls that returned memory
    int64_t bytesAllocated;  // sum of requested sizes
    int64_t liveBytesDelta;  // usable bytes allocated minus usable bytes freed
} cac_stats;

/// Resets the counters and starts counting (all threads).
void cac_start(void);
/// Stops counting and returns what was counted since cac_start().
cac_stats cac_stop(void);

#endif
