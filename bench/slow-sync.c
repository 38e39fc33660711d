/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A slower disk for bench/load.sh (issue 30): loaded into PostgreSQL with
 * LD_PRELOAD, it makes every fsync and fdatasync take at least
 * TTCHESS_SYNC_US microseconds, as on a disk that syncs 1,000,000 /
 * TTCHESS_SYNC_US writes a second.
 *
 * The machines this project runs on differ mostly in their disks (from
 * 3,300 to 15,700 synchronous 4 KiB writes a second in the same week), and
 * whether PostgreSQL keeps up with 1,000 actions a second depends on how
 * many commits share one sync of the WAL.  A run on a fast disk says
 * nothing about a slow one; this lets one machine show both.
 *
 * The call is made first, then the rest of the time slept: the data is on
 * the real disk when the call returns, as before, and the sleep costs no
 * CPU (a slow disk costs waiting, not work).  A sync that took longer on
 * its own is not made longer.  PostgreSQL syncs its WAL holding the lock
 * that orders WAL writes, so syncs queue behind each other as on one disk.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>

typedef int (*SyncCall)(int fd);

/* The emulated sync time in nanoseconds, read once; 0 when the variable
 * is unset, malformed or out of range (then nothing is slowed). */
static long target_ns(void)
{
    static long ns = -1;
    if (ns < 0) {
        const char *s = getenv("TTCHESS_SYNC_US");
        char *end = NULL;
        long us = s ? strtol(s, &end, 10) : 0;
        ns = s && end != s && !*end && us > 0 && us <= 1000000 ? us * 1000 : 0;
    }
    return ns;
}

static long elapsed_ns(const struct timespec *from)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (now.tv_sec - from->tv_sec) * 1000000000L + (now.tv_nsec - from->tv_nsec);
}

/* Calls the real `name` on fd, then sleeps out the rest of the target. */
static int slowed(const char *name, int fd)
{
    SyncCall real = (SyncCall)dlsym(RTLD_NEXT, name);
    if (!real) return -1;
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    int rc = real(fd);
    long left = target_ns() - elapsed_ns(&start);
    if (left > 0) {
        struct timespec pause = { left / 1000000000L, left % 1000000000L };
        nanosleep(&pause, NULL);
    }
    return rc;
}

int fsync(int fd)
{
    return slowed("fsync", fd);
}

int fdatasync(int fd)
{
    return slowed("fdatasync", fd);
}
