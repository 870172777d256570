// Atomic operations on words that Swift code keeps at stable heap addresses.
//
// FutureBridge deploys to macOS 10.15 / iOS 13, where the standard library's
// `Synchronization.Atomic` (macOS 15 / iOS 18) does not exist. These C11 atomics exist
// on every target, and ThreadSanitizer models them, orderings included.
//
// Every function takes a pointer to a plain integer that is only ever accessed through
// these functions (never read or written as an ordinary Swift property after
// initialization), and names its memory ordering. They are `static inline`: Swift
// inlines them into the caller, so an atomic costs what the instruction costs.
//
// The casts to `_Atomic` types rely on C11's guarantee (7.17.6) that the atomic integer
// types have the same representation as their plain counterparts on every platform this
// library supports, where these sizes are lock-free.
#ifndef FUTUREBRIDGE_ATOMICS_H
#define FUTUREBRIDGE_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <pthread.h>

#include "FutureBridgeThreadLocal.h"

#define FB_U32(pointer) ((_Atomic(uint32_t) *)(pointer))
#define FB_INT(pointer) ((_Atomic(intptr_t) *)(pointer))

// MARK: 32-bit words (lock words, flags)

static inline uint32_t fb_u32_load_relaxed(uint32_t *word) {
    return atomic_load_explicit(FB_U32(word), memory_order_relaxed);
}

static inline uint32_t fb_u32_load_acquire(uint32_t *word) {
    return atomic_load_explicit(FB_U32(word), memory_order_acquire);
}

static inline void fb_u32_store_relaxed(uint32_t *word, uint32_t value) {
    atomic_store_explicit(FB_U32(word), value, memory_order_relaxed);
}

/// Replaces `expected` with `desired`; acquire on success, relaxed on failure.
static inline bool fb_u32_compare_exchange_acquire(uint32_t *word, uint32_t expected, uint32_t desired) {
    return atomic_compare_exchange_strong_explicit(
        FB_U32(word), &expected, desired, memory_order_acquire, memory_order_relaxed);
}

static inline uint32_t fb_u32_exchange_acquire(uint32_t *word, uint32_t desired) {
    return atomic_exchange_explicit(FB_U32(word), desired, memory_order_acquire);
}

static inline uint32_t fb_u32_exchange_release(uint32_t *word, uint32_t desired) {
    return atomic_exchange_explicit(FB_U32(word), desired, memory_order_release);
}

static inline uint32_t fb_u32_exchange_acq_rel(uint32_t *word, uint32_t desired) {
    return atomic_exchange_explicit(FB_U32(word), desired, memory_order_acq_rel);
}

/// Sets the bits of `bits`; returns the bits set before.
static inline uint32_t fb_u32_fetch_or_relaxed(uint32_t *word, uint32_t bits) {
    return atomic_fetch_or_explicit(FB_U32(word), bits, memory_order_relaxed);
}

/// Sets the bits of `bits`; returns the bits set before.
static inline uint32_t fb_u32_fetch_or_acq_rel(uint32_t *word, uint32_t bits) {
    return atomic_fetch_or_explicit(FB_U32(word), bits, memory_order_acq_rel);
}

// MARK: 16-bit flags

#define FB_U16(pointer) ((_Atomic(uint16_t) *)(pointer))

static inline uint16_t fb_u16_load_relaxed(uint16_t *flag) {
    return atomic_load_explicit(FB_U16(flag), memory_order_relaxed);
}

static inline void fb_u16_store_relaxed(uint16_t *flag, uint16_t value) {
    atomic_store_explicit(FB_U16(flag), value, memory_order_relaxed);
}

static inline uint16_t fb_u16_exchange_acq_rel(uint16_t *flag, uint16_t desired) {
    return atomic_exchange_explicit(FB_U16(flag), desired, memory_order_acq_rel);
}

#undef FB_U16

// MARK: pointer-sized counters

static inline intptr_t fb_int_load_relaxed(intptr_t *word) {
    return atomic_load_explicit(FB_INT(word), memory_order_relaxed);
}

static inline intptr_t fb_int_load_acquire(intptr_t *word) {
    return atomic_load_explicit(FB_INT(word), memory_order_acquire);
}

static inline void fb_int_store_relaxed(intptr_t *word, intptr_t value) {
    atomic_store_explicit(FB_INT(word), value, memory_order_relaxed);
}

static inline void fb_int_store_release(intptr_t *word, intptr_t value) {
    atomic_store_explicit(FB_INT(word), value, memory_order_release);
}

/// Adds `delta`; returns the value before.
static inline intptr_t fb_int_fetch_add_acq_rel(intptr_t *word, intptr_t delta) {
    return atomic_fetch_add_explicit(FB_INT(word), delta, memory_order_acq_rel);
}

/// Adds `delta`; returns the value before.
static inline intptr_t fb_int_fetch_add_release(intptr_t *word, intptr_t delta) {
    return atomic_fetch_add_explicit(FB_INT(word), delta, memory_order_release);
}

/// Replaces `expected` with `desired`; acquire-release on success, acquire on failure.
static inline bool fb_int_compare_exchange_acq_rel(intptr_t *word, intptr_t expected, intptr_t desired) {
    return atomic_compare_exchange_strong_explicit(
        FB_INT(word), &expected, desired, memory_order_acq_rel, memory_order_acquire);
}

// MARK: threads

/// The calling thread's identity as a number (never 0): `pthread_t` is an integer on
/// Linux and a pointer on Darwin.
static inline intptr_t fb_current_thread(void) {
    return (intptr_t)pthread_self();
}

// MARK: per-thread send nesting (Reactive)

/// The calling thread's record of how deep signal deliveries nest on it, and the work
/// deferred past the limit (an `Unmanaged` object, or NULL). Each thread has its own, so
/// no atomics: only its thread ever reads or writes it. Reached in a few instructions (a
/// `pthread_getspecific` and the lazy key behind it cost dozens per send).
typedef struct {
    intptr_t depth;
    void *deferred;
} fb_send_nesting_t;

extern _Thread_local fb_send_nesting_t fb_send_nesting;

/// The calling thread's nesting record (never NULL); valid only on this thread, until it
/// exits.
static inline fb_send_nesting_t *fb_current_send_nesting(void) {
    return &fb_send_nesting;
}

#undef FB_U32
#undef FB_INT

#endif
