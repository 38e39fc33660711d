/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The engine as a player of the server's games.  A game against the
 * engine has the user id -1 in the engine's seat; whenever an action is
 * committed in such a game, the API wakes this worker with the game's id
 * (Store.wake_engine).  The worker thinks holding no connection, then
 * plays its move through api_handle exactly as a person's browser would,
 * with the ply it read: so every check of the API (the rules, the turn,
 * the ply guard, the clocks) applies to the engine too, and a move that
 * crossed a take-back in flight is refused (409) instead of being applied
 * to the wrong position.
 *
 * One worker thread serves every game in turn: the engine searches with
 * the whole machine's worth of threads it is given, and a second search in
 * parallel would only halve each.  Games waiting for it are a small queue
 * of ids; a game already queued is not queued twice.
 */
#include "api.h"
#include "engine.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPPONENT_QUEUE = 256 };

struct Opponent {
    Store *store;
    Engine *engine;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stopping;
    _Atomic bool stop_search;
    char queue[OPPONENT_QUEUE][2 * SERVER_TOKEN_BYTES + 1];
    int head, count;
};

/* Called by the API (under the store's hooks_lock) after an action in an engine
 * game.  A full queue drops the id: the game is found again by the scan at
 * the next start, and a player's next request wakes it again. */
static void opponent_wake(void *ctx, const char *game)
{
    struct Opponent *o = ctx;
    pthread_mutex_lock(&o->lock);
    bool queued = false;
    for (int i = 0; i < o->count; i++)
        if (!strcmp(o->queue[(o->head + i) % OPPONENT_QUEUE], game)) queued = true;
    if (!queued && o->count < OPPONENT_QUEUE && strlen(game) < sizeof o->queue[0]) {
        snprintf(o->queue[(o->head + o->count) % OPPONENT_QUEUE], sizeof o->queue[0], "%s", game);
        o->count++;
        pthread_cond_signal(&o->wake);
    }
    pthread_mutex_unlock(&o->lock);
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

static void play_turn(struct Opponent *o, const char *id)
{
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
    engine_set_skill(o->engine, (t.level - 1) * ENGINE_SKILL_MAX / 9);
    engine_set_seed(o->engine, (uint64_t)server_now_ms());
    SearchLimits lim = level_limits(&t, &o->stop_search);
    SearchResult res;
    Text err = TEXT_INIT, coord = TEXT_INIT;
    if (engine_search(o->engine, &t.game, &lim, NULL, NULL, &res, &err) && res.has_move && !o->stop_search) {
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

static void *opponent_main(void *arg)
{
    struct Opponent *o = arg;
    for (;;) {
        char id[sizeof o->queue[0]];
        pthread_mutex_lock(&o->lock);
        while (!o->stopping && !o->count) pthread_cond_wait(&o->wake, &o->lock);
        if (o->stopping) {
            pthread_mutex_unlock(&o->lock);
            return NULL;
        }
        memcpy(id, o->queue[o->head], sizeof id);
        o->head = (o->head + 1) % OPPONENT_QUEUE;
        o->count--;
        pthread_mutex_unlock(&o->lock);
        play_turn(o, id);
    }
}

struct Opponent *opponent_start(Store *s, Text *err)
{
    struct Opponent *o = calloc(1, sizeof *o);
    if (!o || !(o->engine = engine_new())) {
        free(o);
        text_fail(err, "out of memory");
        return NULL;
    }
    o->store = s;
    pthread_mutex_init(&o->lock, NULL);
    pthread_cond_init(&o->wake, NULL);
    if (pthread_create(&o->thread, NULL, opponent_main, o)) {
        engine_free(o->engine);
        free(o);
        text_fail(err, "the engine's thread could not start");
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
    pthread_mutex_lock(&o->lock);
    o->stopping = true;
    o->stop_search = true;
    pthread_cond_signal(&o->wake);
    pthread_mutex_unlock(&o->lock);
    pthread_join(o->thread, NULL);
    engine_free(o->engine);
    pthread_mutex_destroy(&o->lock);
    pthread_cond_destroy(&o->wake);
    free(o);
}
