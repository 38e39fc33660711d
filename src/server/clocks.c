/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The clocks' timer: ends a game at the moment its side to move runs out
 * of time (docs/api.md, "Actions": time).  Without it a game whose clock reached
 * zero stayed in play until the side that had flagged moved, which it
 * had no reason to do.
 *
 * The timer knows each active game's deadline: the side to move's time
 * left after the last action (live), or the last action plus the days a
 * move (correspondence).  The API tells it each game's new deadline after
 * every committed action (Store.wake_clock), as it wakes the engine; when
 * the timer starts it reads every active game with a clock, so that a
 * game whose deadline passed while no server ran ends at once (on
 * PostgreSQL it reads them again every CLOCKS_RESCAN_MS, for the games of
 * another server that stopped).  The
 * deadlines are a min-heap, each game in it once (a hash of the ids finds
 * its entry).
 *
 * At a deadline the timer ends the game through api_flag (api.c), which
 * reads the row again: a deadline here may be old (an action on another
 * server), and the game ends only if its time is really up.  The end is
 * written as any action is, with the row's version: on PostgreSQL several
 * servers run a timer each, and one end applies once, the other timers
 * finding the game over.  Each wake carries the row version it follows,
 * so that a wake that arrives late never replaces newer news.
 */
#include "server.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

enum {
    CLOCKS_BUCKETS = 4096,   /* hash buckets of the games watched                  */
    CLOCKS_RETRY_MS = 1000,  /* a game the database could not end is tried again  */
    CLOCKS_ID_MAX = 64,      /* bytes of a game id (the API's segments are shorter) */
    CLOCKS_RESCAN_MS = 30 * 1000, /* every active game read again (PostgreSQL) */
};

/* A game the timer watches: when its side to move runs out of time, as
 * its row said at `version`. */
typedef struct Watch {
    char game[CLOCKS_ID_MAX];
    int64_t version;
    int64_t at;              /* ms since the epoch                         */
    int pos;                 /* its place in the heap                      */
    struct Watch *next;      /* the next game in its hash bucket            */
} Watch;

struct Clocks {
    Store *store;
    pthread_t thread;
    pthread_mutex_t lock;    /* guards everything below                    */
    pthread_cond_t changed;  /* a deadline was added or moved, or stopping */
    atomic_bool stopping;
    Watch **heap;            /* by deadline: heap[0] is due first          */
    int count, capacity;
    Watch *bucket[CLOCKS_BUCKETS];
};

int64_t clock_deadline(const GameRow *row)
{
    if (row->ply == 0 || !row->status || strcmp(row->status, "active")) return 0;
    if (row->days_per_move) return row->last_action_at + row->days_per_move * 86400000LL;
    if (row->base_ms) return row->last_action_at + (row->to_move == WHITE ? row->white_ms : row->black_ms);
    return 0;
}

/* ---- The heap ------------------------------------------------------------- */

static void place(struct Clocks *c, Watch *w, int pos)
{
    c->heap[pos] = w;
    w->pos = pos;
}

static void sift_up(struct Clocks *c, int pos)
{
    Watch *w = c->heap[pos];
    while (pos > 0 && c->heap[(pos - 1) / 2]->at > w->at) {
        place(c, c->heap[(pos - 1) / 2], pos);
        pos = (pos - 1) / 2;
    }
    place(c, w, pos);
}

static void sift_down(struct Clocks *c, int pos)
{
    Watch *w = c->heap[pos];
    for (;;) {
        int child = 2 * pos + 1;
        if (child >= c->count) break;
        if (child + 1 < c->count && c->heap[child + 1]->at < c->heap[child]->at) child++;
        if (c->heap[child]->at >= w->at) break;
        place(c, c->heap[child], pos);
        pos = child;
    }
    place(c, w, pos);
}

/* Puts w back in order after its deadline changed. */
static void reorder(struct Clocks *c, Watch *w)
{
    sift_up(c, w->pos);
    sift_down(c, w->pos);
}

static bool heap_push(struct Clocks *c, Watch *w)
{
    if (c->count == c->capacity) {
        int capacity = c->capacity ? 2 * c->capacity : 64;
        Watch **heap = realloc(c->heap, (size_t)capacity * sizeof *heap);
        if (!heap) return false;
        c->heap = heap;
        c->capacity = capacity;
    }
    place(c, w, c->count++);
    sift_up(c, w->pos);
    return true;
}

static void heap_remove(struct Clocks *c, Watch *w)
{
    Watch *last = c->heap[--c->count];
    if (last == w) return;
    place(c, last, w->pos);
    reorder(c, last);
}

/* ---- The games watched -------------------------------------------------- */

/* FNV-1a: game ids are random, any spread will do. */
static Watch **bucket_of(struct Clocks *c, const char *game)
{
    uint64_t h = 1469598103934665603ULL;
    for (const char *p = game; *p; p++) h = (h ^ (unsigned char)*p) * 1099511628211ULL;
    return &c->bucket[h % CLOCKS_BUCKETS];
}

/* The link that points to the game's entry (to the NULL ending its bucket
 * when it has none). */
static Watch **link_of(struct Clocks *c, const char *game)
{
    Watch **link = bucket_of(c, game);
    while (*link && strcmp((*link)->game, game)) link = &(*link)->next;
    return link;
}

static void unwatch(struct Clocks *c, Watch **link)
{
    Watch *w = *link;
    heap_remove(c, w);
    *link = w->next;
    free(w);
}

/* Records what the row of `version` says of the game: its deadline, or 0
 * when no clock runs any more.  News older than what is known is
 * ignored.  A game that finds no memory is not watched: a request on it
 * still ends it on time, and so does the next start. */
static void watch(struct Clocks *c, const char *game, int64_t version, int64_t at)
{
    if (strlen(game) >= CLOCKS_ID_MAX) return;
    Watch **link = link_of(c, game), *w = *link;
    if (w && version < w->version) return;
    if (!at) {
        if (w) unwatch(c, link);
        return;
    }
    if (w) {
        w->version = version;
        w->at = at;
        reorder(c, w);
        return;
    }
    w = calloc(1, sizeof *w);
    if (!w) return;
    snprintf(w->game, sizeof w->game, "%s", game);
    w->version = version;
    w->at = at;
    if (!heap_push(c, w)) {
        free(w);
        return;
    }
    *link = w;
}

/* Store.wake_clock: called by the API after a committed action. */
static void clocks_wake(void *ctx, const char *game, int64_t version, int64_t deadline)
{
    struct Clocks *c = ctx;
    pthread_mutex_lock(&c->lock);
    watch(c, game, version, deadline);
    pthread_cond_signal(&c->changed);
    pthread_mutex_unlock(&c->lock);
}

/* ---- The thread ----------------------------------------------------------- */

/* Ends the game if its time is up by `now` (api_flag reads the row again)
 * and watches what the row says after; a database that could not say is
 * asked again a second later. */
static void flag(struct Clocks *c, const char *game, int64_t known, int64_t now)
{
    int64_t version = known, deadline = 0;
    if (!api_flag(c->store, game, now, &version, &deadline)) {
        version = known;
        deadline = now + CLOCKS_RETRY_MS;
    }
    pthread_mutex_lock(&c->lock);
    watch(c, game, version, deadline);
    pthread_mutex_unlock(&c->lock);
}

/* Watches every active game with a clock, as the database has them now:
 * one whose deadline passed while no server ran ends at once.  False when
 * the database could not list them. */
static bool scan(struct Clocks *c)
{
    json_t *ids = json_array();
    bool ok = ids && store_clock_games(c->store, ids);
    size_t i;
    json_t *id;
    if (ok)
        json_array_foreach(ids, i, id) {
            if (c->stopping) break;
            flag(c, json_string_value(id), 0, server_now_ms());
        }
    json_decref(ids);
    return ok;
}

/* Waits for a change, or until `at` (ms since the epoch; 0: no deadline). */
static void wait_until(struct Clocks *c, int64_t at)
{
    if (!at) {
        pthread_cond_wait(&c->changed, &c->lock);
        return;
    }
    struct timespec ts = { .tv_sec = at / 1000, .tv_nsec = (long)(at % 1000) * 1000000L };
    pthread_cond_timedwait(&c->changed, &c->lock, &ts);
}

static void *clocks_main(void *arg)
{
    struct Clocks *c = arg;
    int64_t rescan = 0;
    pthread_mutex_lock(&c->lock);
    while (!c->stopping) {
        int64_t now = server_now_ms();
        if (rescan >= 0 && now >= rescan) {
            pthread_mutex_unlock(&c->lock);
            /* On PostgreSQL other servers take actions this timer never
             * hears of; if the server that took a game's last action
             * stops, this one still ends the game on time: it reads every
             * active game again now and then.  One server alone on SQLite
             * hears of every action. */
            bool several = !strcmp(store_kind(c->store), "postgresql");
            rescan = !scan(c) ? now + CLOCKS_RETRY_MS : several ? now + CLOCKS_RESCAN_MS : -1;
            pthread_mutex_lock(&c->lock);
            continue;
        }
        Watch *w = c->count ? c->heap[0] : NULL;
        if (!w || w->at > now) {
            int64_t at = w ? w->at : 0;
            if (rescan >= 0 && (!at || rescan < at)) at = rescan;
            wait_until(c, at);
            continue;
        }
        char game[CLOCKS_ID_MAX];
        int64_t version = w->version;
        snprintf(game, sizeof game, "%s", w->game);
        unwatch(c, link_of(c, game));
        pthread_mutex_unlock(&c->lock);
        flag(c, game, version, now);
        pthread_mutex_lock(&c->lock);
    }
    pthread_mutex_unlock(&c->lock);
    return NULL;
}

/* ---- Starting and stopping ------------------------------------------------ */

static void set_hook(Store *s, struct Clocks *c)
{
    pthread_mutex_lock(&s->hooks_lock);
    s->wake_clock = c ? clocks_wake : NULL;
    s->clock_ctx = c;
    pthread_mutex_unlock(&s->hooks_lock);
}

static void clocks_free(struct Clocks *c)
{
    for (int i = 0; i < c->count; i++) free(c->heap[i]);
    free(c->heap);
    pthread_mutex_destroy(&c->lock);
    pthread_cond_destroy(&c->changed);
    free(c);
}

struct Clocks *clocks_start(Store *s, Text *err)
{
    struct Clocks *c = calloc(1, sizeof *c);
    if (!c) {
        text_fail(err, "out of memory");
        return NULL;
    }
    c->store = s;
    atomic_init(&c->stopping, false);
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->changed, NULL);
    /* The hook first, then the scan (in the thread): an action committed
     * in between is both heard and read, never missed. */
    set_hook(s, c);
    if (pthread_create(&c->thread, NULL, clocks_main, c)) {
        set_hook(s, NULL);
        clocks_free(c);
        text_fail(err, "the clocks' thread could not start");
        return NULL;
    }
    return c;
}

void clocks_stop(struct Clocks *c, Store *s)
{
    if (!c) return;
    set_hook(s, NULL);
    pthread_mutex_lock(&c->lock);
    c->stopping = true;
    pthread_cond_signal(&c->changed);
    pthread_mutex_unlock(&c->lock);
    pthread_join(c->thread, NULL);
    clocks_free(c);
}
