// A count of the heap allocations a process makes, on every thread.
//
// The target defines malloc, calloc, realloc, free, posix_memalign, aligned_alloc, memalign
// and valloc in the executable that links it, in front of glibc's (glibc documents that its
// allocator can be replaced this way, and its own calls go through these symbols too). Each
// allocating call adds one to the count and hands the work to glibc's allocator
// (`__libc_malloc` and its siblings), so nothing else changes: the same blocks, the same
// sizes. Link it only into an executable that measures allocations.
#ifndef CMALLOCCOUNTER_H
#define CMALLOCCOUNTER_H

#include <stdbool.h>
#include <stddef.h>

/// Whether allocations are counted here (glibc only; elsewhere the count stays 0).
bool malloc_counter_is_active(void);

/// Allocating calls since the process started, on every thread: malloc, calloc, realloc,
/// posix_memalign, aligned_alloc, memalign and valloc each count one.
size_t malloc_counter_allocations(void);

#endif
