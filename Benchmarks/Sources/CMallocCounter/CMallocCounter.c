#include "CMallocCounter.h"

#include <stdlib.h>  // declares what is replaced below, and defines __GLIBC__ on glibc

#if defined(__linux__) && defined(__GLIBC__)
#include <errno.h>
#include <malloc.h>
#include <stdatomic.h>

// glibc's allocator under its own names, which replacing malloc does not replace.
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);

// Relaxed: the reader synchronizes with the threads it counts by other means (it waits for
// their work to finish) before it reads.
static _Atomic size_t allocations;

static inline void count_one(void) {
    atomic_fetch_add_explicit(&allocations, 1, memory_order_relaxed);
}

bool malloc_counter_is_active(void) {
    return true;
}

size_t malloc_counter_allocations(void) {
    return atomic_load_explicit(&allocations, memory_order_acquire);
}

void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

void free(void *pointer) {
    __libc_free(pointer);
}

void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count_one();
    return __libc_valloc(size);
}

int posix_memalign(void **result, size_t alignment, size_t size) {
    // POSIX: a power of two that is a multiple of the size of a pointer.
    if (alignment == 0 || alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return EINVAL;
    }
    count_one();
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return ENOMEM;
    }
    *result = pointer;
    return 0;
}

#else

bool malloc_counter_is_active(void) {
    return false;
}

size_t malloc_counter_allocations(void) {
    return 0;
}

#endif
