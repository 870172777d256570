#include "FutureBridgeThreadLocal.h"

_Thread_local void *fb_thread_trampoline = 0;
