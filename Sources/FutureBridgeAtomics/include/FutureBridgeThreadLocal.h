// One pointer per thread: the thread's trampoline (FutureBridge's `Trampoline`), which
// every completion and every observation of a completed future looks up.
//
// A C11 `_Thread_local` is read with one or two instructions, where `pthread_getspecific`
// is a call of some 20; the pthread key stays, only to release the trampoline when the
// thread exits, and its destructor clears this pointer first.
//
// The variable is defined once, in FutureBridgeThreadLocal.c; these accessors are
// `static inline` so that Swift inlines them, and every module that inlines them reads
// that one definition.
#ifndef FUTUREBRIDGE_THREAD_LOCAL_H
#define FUTUREBRIDGE_THREAD_LOCAL_H

extern _Thread_local void *fb_thread_trampoline;

static inline void *fb_thread_trampoline_get(void) { return fb_thread_trampoline; }

static inline void fb_thread_trampoline_set(void *trampoline) { fb_thread_trampoline = trampoline; }

#endif
