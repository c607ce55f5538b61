#include "CAllocCounter.h"
#include <stdatomic.h>
#include <stddef.h>
#include <errno.h>
#include <malloc.h>

#if defined(__linux__) && defined(__GLIBC__)
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);
extern void *__libc_memalign(size_t, size_t);

static _Atomic int enabled;
static _Atomic int64_t allocations;
static _Atomic int64_t bytes_allocated;
static _Atomic int64_t live_bytes;

static inline void note_alloc(void *p, size_t requested) {
    if (p && atomic_load_explicit(&enabled, memory_order_relaxed)) {
        atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
        atomic_fetch_add_explicit(&bytes_allocated, (int64_t)requested, memory_order_relaxed);
        atomic_fetch_add_explicit(&live_bytes, (int64_t)malloc_usable_size(p), memory_order_relaxed);
    }
}

static inline void note_free(void *p) {
    if (p && atomic_load_explicit(&enabled, memory_order_relaxed)) {
        atomic_fetch_sub_explicit(&live_bytes, (int64_t)malloc_usable_size(p), memory_order_relaxed);
    }
}

void *malloc(size_t size) {
    void *p = __libc_malloc(size);
    note_alloc(p, size);
    return p;
}

void *calloc(size_t count, size_t size) {
    void *p = __libc_calloc(count, size);
    note_alloc(p, count * size);
    return p;
}

void *realloc(void *old, size_t size) {
    note_free(old);
    void *p = __libc_realloc(old, size);
    note_alloc(p, size);
    return p;
}

void free(void *p) {
    note_free(p);
    __libc_free(p);
}

void *memalign(size_t alignment, size_t size) {
    void *p = __libc_memalign(alignment, size);
    note_alloc(p, size);
    return p;
}

void *aligned_alloc(size_t alignment, size_t size) {
    return memalign(alignment, size);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    void *p = memalign(alignment, size);
    if (!p) return ENOMEM;
    *out = p;
    return 0;
}

void cac_start(void) {
    atomic_store(&allocations, 0);
    atomic_store(&bytes_allocated, 0);
    atomic_store(&live_bytes, 0);
    atomic_store(&enabled, 1);
}

cac_stats cac_stop(void) {
    atomic_store(&enabled, 0);
    cac_stats s = { atomic_load(&allocations), atomic_load(&bytes_allocated), atomic_load(&live_bytes) };
    return s;
}

#else
void cac_start(void) {}
cac_stats cac_stop(void) { cac_stats s = {0, 0, 0}; return s; }
#endif
