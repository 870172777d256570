// Every function is `static inline` in the header; only the per-thread nesting record of
// signal sends is defined here (the trampoline's thread-local pointer is defined in
// FutureBridgeThreadLocal.c).
#include "FutureBridgeAtomics.h"

_Thread_local fb_send_nesting_t fb_send_nesting = {0, 0};
