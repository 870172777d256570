#include "CHeapStats.h"
#if defined(__linux__)
#include <malloc.h>
size_t cheapstats_heap_bytes(void) { return mallinfo2().uordblks; }
#else
size_t cheapstats_heap_bytes(void) { return 0; }
#endif
