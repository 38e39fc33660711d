/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The WebAssembly build has no threads (WASI's C library has no pthread.h
 * for the plain wasm32-wasi target): this header stands in for the one
 * the engine includes, on the include path of the WebAssembly build only.
 * pthread_create always fails, which the engine takes as "no more
 * helpers" and searches with its main thread alone (Lazy SMP without the
 * helpers is the plain search); join is never reached.
 */
#ifndef TTCHESS_WASM_PTHREAD_H
#define TTCHESS_WASM_PTHREAD_H

#include <errno.h>

typedef int pthread_t;
typedef int pthread_attr_t;

static inline int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*start)(void *), void *arg)
{
    (void)t, (void)attr, (void)start, (void)arg;
    return EAGAIN;
}

static inline int pthread_join(pthread_t t, void **result)
{
    (void)t, (void)result;
    return 0;
}

#endif
