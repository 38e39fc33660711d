/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine as a player of the server's games.  A game against the
 * engine has the user id -1 in the engine's seat; whenever an action is
 * committed in such a game, the API wakes this pool with the game's id
 * (Store.wake_engine).  A worker thinks holding no connection, then plays
 * its move through api_handle exactly as a person's browser would, with
 * the ply it read: so every check of the API (the rules, the turn, the
 * ply guard, the clocks) applies to the engine too, and a move that
 * crossed a take-back in flight is refused (409) instead of being applied
 * to the wrong position.
 *
 * A pool of workers, each with an Engine of its own searching with one
 * thread, serves the games: a search is bounded by its time (a tenth of a
 * second a level), not by the threads it is given, so games are answered
 * sooner side by side than one after another on all the cores.
 *
 * Fairness.  One player's many games must not keep another's waiting, so
 * games wait in a queue per player (the human in the other seat), and a
 * free worker takes the next game of the player served longest ago (or
 * never) among those with a game waiting, and with fewer than
 * SERVER_ENGINE_PER_PLAYER games thinking.  A game is in hand once: a
 * wake for a game waiting changes nothing, and a wake for a game being
 * searched makes it wait again after that search (its position may have
 * changed), so no two workers ever search one game.  Nothing is dropped
 * for want of room: what waits is bounded by the games that exist (a
 * player has at most SERVER_MAX_UNFINISHED_GAMES).
 *
 * A woken game's player is not known to the API's wake (it gives the id
 * only), and reading the row there would hold the store's hooks_lock
 * across a query; so a woken game first waits in an inbox, unsorted, and
 * a worker reads its row and files it under its player before choosing.
 */
#define _XOPEN_SOURCE 700   /* setpriority */
#include "api.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

/* Chains of the table that finds a game in hand by its id (not a limit:
 * a chain grows as far as it must), and the room for an id. */
enum { OPPONENT_BUCKETS = 1024, GAME_ID_SIZE = 2 * SERVER_TOKEN_BYTES + 1 };

typedef enum { JOB_UNSORTED, JOB_WAITING, JOB_THINKING } JobState;

struct Player;

/* A game in hand: in the inbox (unsorted), waiting in its player's queue,
 * or being searched by a worker. */
typedef struct Job {
    char game[GAME_ID_SIZE];
    JobState state;
    bool again;                  /* woken while thinking: look again after  */
    struct Player *player;       /* NULL while unsorted                     */
    struct Job *in_bucket;       /* the next in its chain of the id table   */
    struct Job *next;            /* the next in the inbox or its queue      */
} Job;

/* A queue of jobs, first in first out. */
typedef struct JobQueue {
    Job *first, *last;
} JobQueue;

/* A player with games in hand.  Freed once it has none, so that a player
 * coming back after a pause counts as never served: it has waited. */
typedef struct Player {
    int64_t id;                  /* the human; 0 when the row could not be read */
    int thinking;                /* its games being searched now            */
    uint64_t served;             /* the turn it was last served at, 0: never */
    JobQueue waiting;
    struct Player *next;
} Player;

typedef struct Worker {
    struct Opponent *opponent;
    Engine *engine;
    pthread_t thread;
} Worker;

struct Opponent {
    Store *store;
    Worker *workers;
    int count;                   /* workers allocated                       */
    int started;                 /* ... whose thread runs                   */
    pthread_mutex_t lock;        /* guards everything below                 */
    pthread_cond_t wake;
    bool stopping;
    _Atomic bool stop_search;    /* every worker's search polls it          */
    Job *buckets[OPPONENT_BUCKETS];
    JobQueue inbox;              /* woken games whose player is not read yet */
    Player *players;             /* in the order they came                  */
    uint64_t turns;              /* games taken so far: the clock of `served` */
};

/* ---- Games in hand (under the lock) --------------------------------------- */

static void queue_push(JobQueue *q, Job *j)
{
    j->next = NULL;
    if (q->last) q->last->next = j;
    else q->first = j;
    q->last = j;
}

static Job *queue_pop(JobQueue *q)
{
    Job *j = q->first;
    if (j && !(q->first = j->next)) q->last = NULL;
    return j;
}

/* FNV-1a: game ids are random already, any spread will do. */
static Job **bucket_of(struct Opponent *o, const char *game)
{
    uint32_t h = 2166136261u;
    for (const char *c = game; *c; c++) h = (h ^ (uint8_t)*c) * 16777619u;
    return &o->buckets[h % OPPONENT_BUCKETS];
}

static Job *job_find(struct Opponent *o, const char *game)
{
    Job *j = *bucket_of(o, game);
    while (j && strcmp(j->game, game)) j = j->in_bucket;
    return j;
}

static Job *job_add(struct Opponent *o, const char *game)
{
    Job *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    snprintf(j->game, sizeof j->game, "%s", game);
    Job **bucket = bucket_of(o, game);
    j->in_bucket = *bucket;
    *bucket = j;
    return j;
}

static void job_forget(struct Opponent *o, Job *j)
{
    Job **at = bucket_of(o, j->game);
    while (*at != j) at = &(*at)->in_bucket;
    *at = j->in_bucket;
    free(j);
}

/* The player's entry, added at the end of the list when it has none;
 * NULL when out of memory. */
static Player *player_get(struct Opponent *o, int64_t id)
{
    Player **at = &o->players;
    while (*at && (*at)->id != id) at = &(*at)->next;
    if (!*at && (*at = calloc(1, sizeof **at))) (*at)->id = id;
    return *at;
}

static void player_release_if_idle(struct Opponent *o, Player *p)
{
    if (p->thinking || p->waiting.first) return;
    Player **at = &o->players;
    while (*at != p) at = &(*at)->next;
    *at = p->next;
    free(p);
}

/* Puts a job in its player's queue and lets an idle worker know. */
static void job_file(struct Opponent *o, Job *j, int64_t player)
{
    Player *p = player_get(o, player);
    if (!p) {
        /* Out of memory: the game is found again by the scan at the next
         * start, or woken by its player's next action. */
        job_forget(o, j);
        return;
    }
    j->player = p;
    j->state = JOB_WAITING;
    queue_push(&p->waiting, j);
    pthread_cond_signal(&o->wake);
}

/* The fairness rule: the next game of the player served longest ago, or
 * never, among those with a game waiting and room under the cap; NULL
 * when no game may start now. */
static Job *job_take(struct Opponent *o)
{
    Player *best = NULL;
    for (Player *p = o->players; p; p = p->next)
        if (p->waiting.first && p->thinking < SERVER_ENGINE_PER_PLAYER && (!best || p->served < best->served))
            best = p;
    if (!best) return NULL;
    Job *j = queue_pop(&best->waiting);
    j->state = JOB_THINKING;
    best->thinking++;
    best->served = ++o->turns;
    return j;
}

/* After a search: the game waits again if it was woken meanwhile, else it
 * leaves the engine's hands.  The finishing worker then looks for work
 * itself, and a second one is woken in case the freed place under the cap
 * lets another game start too. */
static void job_done(struct Opponent *o, Job *j)
{
    Player *p = j->player;
    p->thinking--;
    if (j->again && !o->stopping) {
        j->again = false;
        j->state = JOB_WAITING;
        queue_push(&p->waiting, j);
    } else {
        job_forget(o, j);
    }
    player_release_if_idle(o, p);
    pthread_cond_signal(&o->wake);
}

/* Called by the API (under the store's hooks_lock) after an action in an
 * engine game, and by the pool itself.  Only memory running out drops a
 * wake: the game is then found again by the scan at the next start. */
static void opponent_wake(void *ctx, const char *game)
{
    struct Opponent *o = ctx;
    if (strlen(game) >= GAME_ID_SIZE) return;
    pthread_mutex_lock(&o->lock);
    Job *j = job_find(o, game);
    if (j) {
        if (j->state == JOB_THINKING) j->again = true;
    } else if ((j = job_add(o, game))) {
        j->state = JOB_UNSORTED;
        queue_push(&o->inbox, j);
        pthread_cond_signal(&o->wake);
    }
    pthread_mutex_unlock(&o->lock);
}

/* ---- One turn of one game --------------------------------------------------- */

/* The human of an engine game: the player of the other seat; 0 when the
 * row cannot be read (the worker then finds out why, and does nothing). */
static int64_t player_of(Store *s, const char *game)
{
    GameRow row;
    bool found = false;
    int64_t player = 0;
    if (store_game_get(s, game, &row, &found) && found) {
        player = row.white == -1 ? row.black : row.white;
        store_game_free(&row);
    }
    return player;
}

/* Posts an action to the game as the engine; the reply's status. */
static int post_action(Store *s, const char *game, const char *action, int ply)
{
    char path[96];
    snprintf(path, sizeof path, "/api/games/%s/actions", game);
    json_t *body = json_pack("{s:s, s:i}", "action", action, "ply", ply);
    char *text = body ? json_dumps(body, JSON_COMPACT) : NULL;
    json_decref(body);
    if (!text) return 500;
    ApiRequest req = { .method = "POST", .path = path, .body = text, .body_len = strlen(text), .user = -1,
                       .user_name = "ttchess engine" };
    ApiReply reply;
    api_handle(s, &req, &reply);
    int status = reply.status;
    api_reply_free(&reply);
    free(text);
    return status;
}

/* What the engine must do in a game, read on one connection. */
typedef struct Turn {
    bool answer_offer;       /* the player offered a draw or a take-back    */
    bool takeback;           /* ... a take-back (accepted), else a draw (declined) */
    bool move;               /* it is the engine's move                     */
    int ply;
    int level;
    int64_t time_left;       /* ms on the engine's live clock, 0: none      */
    Game game;               /* loaded when `move`                          */
} Turn;

static bool read_turn(Store *s, const char *id, Turn *t)
{
    memset(t, 0, sizeof *t);
    GameRow row;
    bool found = false, ok = false;
    store_enter(s);
    if (store_game_get(s, id, &row, &found) && found) {
        int engine = row.white == -1 ? WHITE : row.black == -1 ? BLACK : -1;
        if (engine >= 0 && !strcmp(row.status, "active")) {
            t->ply = row.ply;
            t->level = row.engine_level;
            int offer = row.takeback_offer ? row.takeback_offer : row.draw_offer;
            if (offer == !engine + 1) {
                t->answer_offer = true;
                t->takeback = row.takeback_offer != 0;
                ok = true;
            } else if (row.to_move == engine) {
                Text err = TEXT_INIT;
                t->move = play_load(s, &row, &t->game, &err);
                if (!t->move) game_free(&t->game);
                text_free(&err);
                if (row.base_ms) t->time_left = engine == WHITE ? row.white_ms : row.black_ms;
                ok = t->move;
            }
        }
        store_game_free(&row);
    }
    store_leave(s);
    return ok;
}

/* The engine's strength at a level of the API (1..10), as `ttchess play
 * --vs engine --level` sets it: skill in even steps, a tenth of a second
 * a level to think, and never more than a twentieth of a live clock. */
static SearchLimits level_limits(const Turn *t, const _Atomic bool *stop)
{
    SearchLimits lim = { .movetime = 100L * t->level, .multipv = 1, .stop = stop };
    if (t->time_left > 0 && lim.movetime > t->time_left / 20) lim.movetime = t->time_left / 20 > 10 ? t->time_left / 20 : 10;
    return lim;
}

static void play_turn(Worker *w, const char *id)
{
    struct Opponent *o = w->opponent;
    Turn t;
    if (!read_turn(o->store, id, &t)) return;
    if (t.answer_offer) {
        /* The engine takes an action back whenever asked (the take-back
         * goes back to the player's own turn: see api.c) and declines
         * draws: it plays on until the rules end the game. */
        post_action(o->store, id, t.takeback ? "accept-takeback" : "decline", t.ply);
        opponent_wake(o, id);   /* after a take-back it may be its move */
        return;
    }
    engine_set_skill(w->engine, (t.level - 1) * ENGINE_SKILL_MAX / 9);
    engine_set_seed(w->engine, (uint64_t)server_now_ms());
    SearchLimits lim = level_limits(&t, &o->stop_search);
    SearchResult res;
    Text err = TEXT_INIT, coord = TEXT_INIT;
    if (engine_search(w->engine, &t.game, &lim, NULL, NULL, &res, &err) && res.has_move && !o->stop_search) {
        Line l;
        line_open(&l, &t.game, game_current(&t.game));
        bool ok = t.game.variant->format_coord(&l, res.best, &coord);
        line_close(&l);
        /* A 409 means the game moved on while the engine thought (a
         * take-back); it is then read again, as the API's wake-up after
         * that take-back asks. */
        if (ok) post_action(o->store, id, text_str(&coord), t.ply);
    }
    text_free(&err);
    text_free(&coord);
    game_free(&t.game);
}

/* ---- The workers -------------------------------------------------------------- */

/* Files the first game of the inbox under its player, reading its row with
 * the lock let go (the lock is held on entry and on return). */
static void sort_one(struct Opponent *o)
{
    Job *j = queue_pop(&o->inbox);
    pthread_mutex_unlock(&o->lock);
    int64_t player = player_of(o->store, j->game);
    pthread_mutex_lock(&o->lock);
    job_file(o, j, player);
}

/* The next game this worker searches, chosen once every woken game is
 * filed under its player; NULL when the pool stops. */
static Job *next_job(struct Opponent *o)
{
    pthread_mutex_lock(&o->lock);
    Job *j = NULL;
    while (!o->stopping) {
        if (o->inbox.first) sort_one(o);
        else if ((j = job_take(o))) break;
        else pthread_cond_wait(&o->wake, &o->lock);
    }
    pthread_mutex_unlock(&o->lock);
    return j;
}

/* A worker searches at a lower priority than the threads that serve
 * requests: a search is bounded by its time, not by its nodes, so a busy
 * machine makes the engine a little weaker, never later, while a request
 * waiting behind searches for a core keeps a person waiting (with more
 * searches than cores, reading a game took ten times as long).  On Linux
 * the nice value is the calling thread's; elsewhere it would be the
 * whole process's, so it is left alone there. */
static void lower_priority(void)
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, 0, SERVER_ENGINE_NICE);
#endif
}

static void *worker_main(void *arg)
{
    Worker *w = arg;
    struct Opponent *o = w->opponent;
    lower_priority();
    Job *j;
    while ((j = next_job(o))) {
        play_turn(w, j->game);
        pthread_mutex_lock(&o->lock);
        job_done(o, j);
        pthread_mutex_unlock(&o->lock);
    }
    return NULL;
}

/* A worker's engine: one search thread, and a transposition table of
 * SERVER_ENGINE_HASH_MB (8 MB), enough for a search of a second or less
 * on one thread.  A worker holds about 10 MB in all while it searches
 * (the table, its lines and move lists, its thread's memory; measured
 * with 1 and 12 workers), so that even 64 workers stay under a gigabyte. */
static Engine *worker_engine(void)
{
    Engine *e = engine_new();
    if (e && !engine_set_hash(e, SERVER_ENGINE_HASH_MB)) {
        engine_free(e);
        return NULL;
    }
    if (e) engine_set_threads(e, 1);
    return e;
}

/* The number of workers: as asked, else one a core, within the limits. */
static int pool_size(int asked)
{
    long n = asked > 0 ? asked : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > SERVER_MAX_ENGINE_WORKERS ? SERVER_MAX_ENGINE_WORKERS : (int)n;
}

static bool start_workers(struct Opponent *o, int count, Text *err)
{
    if (!(o->workers = calloc((size_t)count, sizeof *o->workers))) return text_fail(err, "out of memory");
    o->count = count;
    for (int i = 0; i < count; i++) {
        Worker *w = &o->workers[i];
        w->opponent = o;
        if (!(w->engine = worker_engine())) return text_fail(err, "out of memory");
        if (pthread_create(&w->thread, NULL, worker_main, w))
            return text_fail(err, "the engine's threads could not start");
        o->started = i + 1;
    }
    return true;
}

/* Stops every search, joins every worker and frees the pool with whatever
 * it still held (those games are taken up at the next start). */
static void stop_workers(struct Opponent *o)
{
    pthread_mutex_lock(&o->lock);
    o->stopping = true;
    o->stop_search = true;
    pthread_cond_broadcast(&o->wake);
    pthread_mutex_unlock(&o->lock);
    for (int i = 0; i < o->started; i++) pthread_join(o->workers[i].thread, NULL);
    for (int i = 0; i < o->count; i++) engine_free(o->workers[i].engine);
    while (o->players) {
        Player *p = o->players;
        o->players = p->next;
        free(p);
    }
    for (int b = 0; b < OPPONENT_BUCKETS; b++)
        while (o->buckets[b]) {
            Job *j = o->buckets[b];
            o->buckets[b] = j->in_bucket;
            free(j);
        }
    free(o->workers);
    pthread_mutex_destroy(&o->lock);
    pthread_cond_destroy(&o->wake);
    free(o);
}

struct Opponent *opponent_start(Store *s, int workers, Text *err)
{
    struct Opponent *o = calloc(1, sizeof *o);
    if (!o) {
        text_fail(err, "out of memory");
        return NULL;
    }
    o->store = s;
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->wake, NULL);
    if (!start_workers(o, pool_size(workers), err)) {
        stop_workers(o);
        return NULL;
    }
    /* Games in which the engine was to move when the server last stopped
     * are taken up again now. */
    json_t *ids = json_array();
    pthread_mutex_lock(&s->hooks_lock);
    s->wake_engine = opponent_wake;
    s->wake_ctx = o;
    pthread_mutex_unlock(&s->hooks_lock);
    bool listed = ids && store_engine_games(s, ids);
    size_t i;
    json_t *id;
    if (listed) json_array_foreach(ids, i, id) opponent_wake(o, json_string_value(id));
    json_decref(ids);
    return o;
}

void opponent_stop(struct Opponent *o, Store *s)
{
    if (!o) return;
    pthread_mutex_lock(&s->hooks_lock);
    s->wake_engine = NULL;
    s->wake_ctx = NULL;
    pthread_mutex_unlock(&s->hooks_lock);
    stop_workers(o);
}
