#include "FutureBridgeThreadLocal.h"

_Thread_local void *fb_thread_trampoline = 0;

_Thread_local fb_origin_cache_entry fb_origin_cache[FB_ORIGIN_CACHE_SLOTS];
