/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * An LD_PRELOAD shim that makes the FAIL_AT-th allocation of a program
 * (malloc, calloc or realloc, counted from 1) and every later one fail, for
 * tests/oom-test.sh.  With FAIL_AT unset nothing fails and FAIL_COUNT_FILE,
 * when set, receives how many allocations the program made.  glibc lets a
 * program replace these functions and routes its own calls through them;
 * the real ones are reached by their __libc_ names.
 *
 * Only allocations from the start of the program on are counted: the
 * shared libraries the server links (libmicrohttpd's GnuTLS) allocate in
 * their constructors, before the program starts, and abort the program
 * when that fails, which is no failure of ttchess's to test.  The shim
 * knows the program has started when the C library's start-up routine,
 * __libc_start_main, is called: it runs after every library constructor.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static long counted;
static long fail_at = -1;
static int started;

typedef int (*StartMain)(int (*)(int, char **, char **), int, char **, void (*)(void), void (*)(void),
                         void (*)(void), void *);

int __libc_start_main(int (*main_fn)(int, char **, char **), int argc, char **argv, void (*init)(void),
                      void (*fini)(void), void (*rtld_fini)(void), void *stack_end)
{
    StartMain real = (StartMain)dlsym(RTLD_NEXT, "__libc_start_main");
    started = 1;
    return real(main_fn, argc, argv, init, fini, rtld_fini, stack_end);
}

static void setup(void)
{
    static int done;
    if (done) return;
    done = 1;
    const char *s = getenv("FAIL_AT");
    if (s && *s) fail_at = atol(s);
}

/* True if this allocation must fail (errno then says so, as malloc's would). */
static int refuse(void)
{
    if (!started) return 0;
    setup();
    counted++;
    if (fail_at <= 0 || counted < fail_at) return 0;
    errno = ENOMEM;
    return 1;
}

void *malloc(size_t n) { return refuse() ? NULL : __libc_malloc(n); }
void *calloc(size_t a, size_t b) { return refuse() ? NULL : __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { return refuse() ? NULL : __libc_realloc(p, n); }

__attribute__((destructor)) static void report(void)
{
    const char *path = getenv("FAIL_COUNT_FILE");
    if (!path || fail_at > 0) return;
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%ld\n", counted);
        fclose(f);
    }
}
