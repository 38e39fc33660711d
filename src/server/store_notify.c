/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Telling the other servers on a PostgreSQL database that there are new
 * events, so that they wake their live streams (store.c listens for it).
 *
 * The notice is sent after the transaction that stored the events has
 * committed, by a thread of the store's on a connection of its own, and
 * one notice answers every commit that asked while the previous one was on
 * its way.  It used to be sent inside each action's transaction, which is
 * simpler and delivered only on commit; but PostgreSQL lets one
 * transaction that sent a NOTIFY commit at a time (a lock on the
 * notification queue, held until the commit is on disk), so every action
 * of every server waited for the disk in turn, and the disk's group
 * commit could not flush several at once.  bench/load.sh showed it:
 * with two servers, "Lock:object" was what the database's sessions waited
 * for most (README, "The server under load").
 *
 * The price is a window: a server that dies between a commit and its
 * notice leaves the other servers' streams of that game asleep until the
 * next notice of any game (each wakes every stream).  The events are in
 * the database all the same, and a stream that reconnects reads them.
 */
#include "server.h"

#include <stdatomic.h>
#include <time.h>

#include "db.h"

/* A notice that could not be sent (the database restarting) is tried
 * again after this long. */
enum { NOTIFY_RETRY_MS = 200 };
/* A notice waits this long for more commits to answer: at a thousand
 * actions a second, one notice then answers a few, and the other servers
 * hear of an action a millisecond later. */
enum { NOTIFY_GATHER_MS = 1 };

static void pause_ms(int ms)
{
    struct timespec t = { ms / 1000, (long)(ms % 1000) * 1000000L };
    nanosleep(&t, NULL);
}

static void *notify_loop(void *arg)
{
    Store *s = arg;
    pthread_mutex_lock(&s->notify_lock);
    while (!atomic_load(&s->stopping)) {
        if (!s->notify_wanted) {
            pthread_cond_wait(&s->notify_cond, &s->notify_lock);
            continue;
        }
        pthread_mutex_unlock(&s->notify_lock);
        pause_ms(NOTIFY_GATHER_MS);
        pthread_mutex_lock(&s->notify_lock);
        s->notify_wanted = false;
        pthread_mutex_unlock(&s->notify_lock);
        bool sent = s->driver->notify(s->notifier, "") == DB_OK;
        if (!sent) pause_ms(NOTIFY_RETRY_MS);
        pthread_mutex_lock(&s->notify_lock);
        if (!sent) s->notify_wanted = true;
    }
    pthread_mutex_unlock(&s->notify_lock);
    return NULL;
}

bool store_notifier_start(Store *s, Text *err)
{
    if (!s->driver->notify) return true;
    s->notifier = s->driver->open(s->target, err);
    if (!s->notifier) return false;
    pthread_mutex_init(&s->notify_lock, NULL);
    pthread_cond_init(&s->notify_cond, NULL);
    if (pthread_create(&s->notify_thread, NULL, notify_loop, s)) {
        pthread_mutex_destroy(&s->notify_lock);
        pthread_cond_destroy(&s->notify_cond);
        s->driver->close(s->notifier);
        s->notifier = NULL;
        return text_fail(err, "cannot start the thread that tells other servers of new events");
    }
    s->notifying = true;
    return true;
}

void store_notifier_stop(Store *s)
{
    if (!s->notifying) return;
    pthread_mutex_lock(&s->notify_lock);
    atomic_store(&s->stopping, true);
    pthread_cond_broadcast(&s->notify_cond);
    pthread_mutex_unlock(&s->notify_lock);
    pthread_join(s->notify_thread, NULL);
    pthread_mutex_destroy(&s->notify_lock);
    pthread_cond_destroy(&s->notify_cond);
    s->driver->close(s->notifier);
    s->notifier = NULL;
    s->notifying = false;
}

void store_notify_soon(Store *s)
{
    if (!s->driver->notify) return;
    if (!s->notifying) {
        /* No thread (a store that does not listen: a tool, a test): the
         * notice goes at once, on a connection of the pool. */
        store_enter(s);
        s->driver->notify(store_connection_held(s), "");
        store_leave(s);
        return;
    }
    pthread_mutex_lock(&s->notify_lock);
    s->notify_wanted = true;
    pthread_cond_signal(&s->notify_cond);
    pthread_mutex_unlock(&s->notify_lock);
}
