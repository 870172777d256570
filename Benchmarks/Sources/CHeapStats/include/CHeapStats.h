#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>
/// Bytes currently allocated through malloc (glibc's mallinfo2().uordblks), 0 elsewhere.
size_t cheapstats_heap_bytes(void);
#endif
