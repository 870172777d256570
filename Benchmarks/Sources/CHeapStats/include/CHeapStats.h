#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>
/// Bytes currently allocated through malloc (glibc's mallinfo2().uordblks), 0 elsewhere.
size_t cheapstats_heap_bytes(void);
/// Gives freed heap memory back to the system (glibc's malloc_trim(0)); nothing elsewhere.
void cheapstats_release_free_memory(void);
#endif
