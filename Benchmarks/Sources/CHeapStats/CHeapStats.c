#include "CHeapStats.h"
#if defined(__linux__)
#include <malloc.h>
size_t cheapstats_heap_bytes(void) { return mallinfo2().uordblks; }
void cheapstats_release_free_memory(void) { malloc_trim(0); }
#else
size_t cheapstats_heap_bytes(void) { return 0; }
void cheapstats_release_free_memory(void) {}
#endif
