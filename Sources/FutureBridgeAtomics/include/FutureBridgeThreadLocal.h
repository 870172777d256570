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

#include <stdint.h>

extern _Thread_local void *fb_thread_trampoline;

static inline void *fb_thread_trampoline_get(void) { return fb_thread_trampoline; }

static inline void fb_thread_trampoline_set(void *trampoline) { fb_thread_trampoline = trampoline; }

// A small per-thread cache in front of FutureBridge's table of promise origins
// (`PromiseOrigins`): the `#fileID` and `#line` a promise is created at map to a number,
// which the promise's future keeps in 30 bits instead of 14 bytes. Creating promises at
// the same few call sites, over and over, then finds the number here without a lock.
//
// Direct-mapped: a site's slot is a hash of its key, and a new site replaces whatever
// was in its slot. An entry whose index is 0 is empty (index 0 means "not recorded").
// Plain memory, written and read only by its own thread; nothing to free at thread exit.
typedef struct {
    uintptr_t file;
    uint64_t lineAndCount;
    uint32_t index;
} fb_origin_cache_entry;

#define FB_ORIGIN_CACHE_SLOTS 32

extern _Thread_local fb_origin_cache_entry fb_origin_cache[FB_ORIGIN_CACHE_SLOTS];

static inline fb_origin_cache_entry *fb_origin_cache_slot(uintptr_t file, uint64_t lineAndCount) {
    // The line in the low bits, so that the sites of one file spread over the slots.
    return &fb_origin_cache[((uint32_t)(file >> 3) ^ (uint32_t)lineAndCount) % FB_ORIGIN_CACHE_SLOTS];
}

/// The cached index of the site `file`, `lineAndCount`, or 0 if this thread has not
/// cached it.
static inline uint32_t fb_origin_cache_lookup(uintptr_t file, uint64_t lineAndCount) {
    fb_origin_cache_entry *entry = fb_origin_cache_slot(file, lineAndCount);
    return entry->file == file && entry->lineAndCount == lineAndCount ? entry->index : 0;
}

static inline void fb_origin_cache_store(uintptr_t file, uint64_t lineAndCount, uint32_t index) {
    fb_origin_cache_entry *entry = fb_origin_cache_slot(file, lineAndCount);
    entry->file = file;
    entry->lineAndCount = lineAndCount;
    entry->index = index;
}

#endif
