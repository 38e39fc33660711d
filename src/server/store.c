/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The database of ttchess serve, over a storage driver (db.h): SQLite by
 * default, PostgreSQL for several servers on one database.  The SQL is
 * written here once, in the dialect both understand; the drivers only
 * carry it.  Every value a user sent is a bound parameter.
 *
 * The schema is versioned: STORE_MIGRATIONS[i] (store_schema.c) takes a
 * database from version i to i + 1, and store_open runs the ones missing.
 *
 * Connections.  The store holds a small pool of connections, and a thread
 * takes one for each call (store_enter/store_leave, done by every
 * function here) or, from store_begin to store_commit or store_rollback,
 * for a whole transaction.  Requests thus read the database at once, and
 * the work between reads and writes (replaying a game, checking an
 * action, writing the state) runs in parallel; writers are ordered by
 * the database itself.
 *
 * A game's row carries a version, raised by every write of it: a write
 * based on a row that another request (or another server) has changed
 * since it was read fails as stale, and the request gets 409.  Together
 * with the primary key of (game, ply) on actions, this is what makes one
 * action for one ply apply once, on one server or on several.
 */
#include "server.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "db.h"
#include "store_rows.h"
#include "store_schema.h"
#include "ratings.h"
#include "registry.h"


/* ---- Connections -------------------------------------------------------- */

/* The connection this thread holds, and how many calls deep. */
static _Thread_local struct {
    Store *store;
    int slot;
    int depth;
    bool transaction;   /* between store_begin and its commit or rollback */
    bool notify;        /* ... which stored events: tell the other servers */
    char locked[64];    /* ... which wrote this game's row, so holds its lock */
} held;

void store_enter(Store *s)
{
    if (held.store == s && held.depth) {
        held.depth++;
        return;
    }
    pthread_mutex_lock(&s->pool_lock);
    int slot;
    for (;;) {
        for (slot = 0; slot < s->size && s->busy[slot]; slot++) continue;
        if (slot < s->size) break;
        pthread_cond_wait(&s->pool_free, &s->pool_lock);
    }
    s->busy[slot] = true;
    pthread_mutex_unlock(&s->pool_lock);
    held.store = s;
    held.slot = slot;
    held.depth = 1;
}

void store_leave(Store *s)
{
    if (held.store != s || !held.depth || --held.depth) return;
    /* A transaction still open here is a handler's bug; ending it keeps
     * the connection (and SQLite's writer lock) usable by the next. */
    DbConn *c = s->conns[held.slot];
    if (s->driver->in_transaction(c)) s->driver->rollback(c);
    pthread_mutex_lock(&s->pool_lock);
    s->busy[held.slot] = false;
    pthread_cond_signal(&s->pool_free);
    pthread_mutex_unlock(&s->pool_lock);
    held.store = NULL;
    held.transaction = false;
    held.notify = false;
    held.locked[0] = '\0';
}

bool store_idle(Store *s)
{
    if (held.store == s && held.depth) return false;
    pthread_mutex_lock(&s->pool_lock);
    bool idle = true;
    for (int i = 0; i < s->size; i++) idle = idle && !s->busy[i];
    for (int i = 0; idle && i < s->size; i++) idle = !s->driver->in_transaction(s->conns[i]);
    pthread_mutex_unlock(&s->pool_lock);
    return idle;
}

/* One statement on this thread's connection. */
static DbStatus run(Store *s, const char *sql, const DbValue *params, int count, DbRows *rows)
{
    store_enter(s);
    DbStatus st = s->driver->run(s->conns[held.slot], sql, params, count, rows);
    store_leave(s);
    return st;
}

/* The same for the store's other files (store_mail.c, store_rows.h). */
DbStatus store_run(Store *s, const char *sql, const DbValue *params, int count, DbRows *rows)
{
    return run(s, sql, params, count, rows);
}

/* The other servers are told of new events after the commit that stored
 * them (store_notify.c says why), or at once outside a transaction. */
static void notify_after_commit(Store *s)
{
    if (!s->driver->notify) return;
    if (held.store == s && held.transaction) held.notify = true;
    else store_notify_soon(s);
}

bool store_notify(Store *s, const char *topic)
{
    (void)topic;
    notify_after_commit(s);
    return true;
}

#define RUN(s, sql, rows, ...) \
    run(s, sql, (DbValue[]){ __VA_ARGS__ }, (int)(sizeof((DbValue[]){ __VA_ARGS__ }) / sizeof(DbValue)), rows)

/* ---- Opening ------------------------------------------------------------ */

static void *listen_loop(void *arg)
{
    Store *s = arg;
    while (!atomic_load(&s->stopping)) {
        int got = s->driver->listen_wait(s->listener, 250);
        if (got > 0 && s->on_event) s->on_event();
        if (got < 0) {
            struct timespec pause = { 0, 200 * 1000 * 1000 };
            nanosleep(&pause, NULL);
        }
    }
    return NULL;
}

bool store_open(Store *s, const char *target, Text *err)
{
    return store_open_at(s, target, STORE_SCHEMA_VERSION, err);
}

int store_schema_version(void)
{
    return STORE_SCHEMA_VERSION;
}

bool store_open_at(Store *s, const char *target, int schema, Text *err)
{
    if (schema < 1 || schema > STORE_SCHEMA_VERSION) return text_fail(err, "no schema version %d", schema);
    memset(s, 0, sizeof *s);
    s->driver = db_driver_for(target);
    s->target = strdup(target);
    s->size = s->driver->pool_size(target);
    s->conns = calloc((size_t)s->size, sizeof *s->conns);
    s->busy = calloc((size_t)s->size, sizeof *s->busy);
    if (!s->conns || !s->busy || !s->target) {
        free(s->conns);
        free(s->busy);
        free(s->target);
        return text_fail(err, "out of memory");
    }
    pthread_mutex_init(&s->pool_lock, NULL);
    pthread_cond_init(&s->pool_free, NULL);
    pthread_mutex_init(&s->hooks_lock, NULL);
    /* The first connection brings the schema up to date before the others
     * open (a SQLite file in WAL mode, say, is set up by the first). */
    bool ok = true;
    for (int i = 0; ok && i < s->size; i++) {
        s->conns[i] = s->driver->open(target, err);
        ok = s->conns[i] && (i || s->driver->migrate(s->conns[0], STORE_MIGRATIONS, schema, err));
    }
    if (!ok) {
        store_close(s);
        return false;
    }
    return true;
}

bool store_listen(Store *s, void (*on_event)(void), Text *err)
{
    if (!s->driver->listen_wait) return true;
    s->on_event = on_event;
    s->listener = s->driver->open(s->target, err);
    if (!s->listener) return false;
    if (pthread_create(&s->listen_thread, NULL, listen_loop, s)) {
        s->driver->close(s->listener);
        s->listener = NULL;
        return text_fail(err, "cannot start the thread that listens for other servers' events");
    }
    s->listening = true;
    return store_notifier_start(s, err);
}

void store_close(Store *s)
{
    if (!s->conns) return;
    if (s->listening) {
        atomic_store(&s->stopping, true);
        pthread_join(s->listen_thread, NULL);
        s->listening = false;
    }
    store_notifier_stop(s);
    if (s->listener) s->driver->close(s->listener);
    for (int i = 0; i < s->size; i++)
        if (s->conns[i]) s->driver->close(s->conns[i]);
    free(s->conns);
    free(s->busy);
    free(s->target);
    pthread_mutex_destroy(&s->pool_lock);
    pthread_cond_destroy(&s->pool_free);
    pthread_mutex_destroy(&s->hooks_lock);
    memset(s, 0, sizeof *s);
}

const char *store_kind(const Store *s)
{
    return s->driver->name;
}

struct DbConn *store_connection(Store *s, int i)
{
    return i >= 0 && i < s->size ? s->conns[i] : NULL;
}

struct DbConn *store_connection_held(Store *s)
{
    return held.store == s && held.depth ? s->conns[held.slot] : NULL;
}

/* A transaction keeps this thread's connection from store_begin to
 * store_commit or store_rollback. */
bool store_begin(Store *s)
{
    store_enter(s);
    if (s->driver->begin(s->conns[held.slot]) == DB_OK) {
        held.transaction = true;
        return true;
    }
    store_leave(s);
    return false;
}

/* A failed commit leaves the transaction to the caller's rollback. */
bool store_commit(Store *s)
{
    if (held.store != s || !held.transaction) return false;
    if (s->driver->commit(s->conns[held.slot]) != DB_OK) return false;
    bool notify = held.notify;
    held.transaction = false;
    store_leave(s);
    if (notify) store_notify_soon(s);
    return true;
}

/* Ends the transaction store_begin opened, whatever became of it: the
 * database may have rolled it back already (SQLite does on a full disk),
 * and the connection must go back to the pool all the same. */
void store_rollback(Store *s)
{
    if (held.store != s || !held.transaction) return;
    s->driver->rollback(s->conns[held.slot]);
    held.transaction = false;
    store_leave(s);
}

/* ---- Accounts ----------------------------------------------------------- */

bool store_user_add(Store *s, const char *name, const char *hash, int64_t *id, bool *taken)
{
    DbRows r;
    DbStatus st = RUN(s, "INSERT INTO users(name, hash, created) VALUES ($1, $2, $3) RETURNING id", &r, DB_S(name),
                      DB_S(hash), DB_I(server_now_ms()));
    *taken = st == DB_CONFLICT;
    if (st != DB_OK) return false;
    *id = db_int(&r, 0, 0);
    bool ok = r.rows == 1;
    db_rows_free(&r);
    return ok;
}

bool store_user_hash(Store *s, const char *name, int64_t *id, char **hash)
{
    *hash = NULL;
    DbRows r;
    if (RUN(s, "SELECT id, hash FROM users WHERE lower(name) = lower($1) AND deleted = 0", &r, DB_S(name))) return false;
    bool ok = true;
    if (r.rows == 1) {
        *id = db_int(&r, 0, 0);
        *hash = strdup(db_text(&r, 0, 1));
        ok = *hash != NULL;
    }
    db_rows_free(&r);
    return ok;
}

bool store_user_id(Store *s, const char *name, int64_t *id)
{
    DbRows r;
    if (RUN(s, "SELECT id FROM users WHERE lower(name) = lower($1)", &r, DB_S(name))) return false;
    bool ok = r.rows == 1;
    if (ok) *id = db_int(&r, 0, 0);
    db_rows_free(&r);
    return ok;
}

/* ---- API tokens and block lists -------------------------------------------- */

bool store_token_add(Store *s, int64_t user, const char *token_hash, const char *label, int64_t *id)
{
    DbRows r;
    if (RUN(s, "INSERT INTO api_tokens(user_id, token_hash, label, created) VALUES ($1, $2, $3, $4) RETURNING id", &r,
            DB_I(user), DB_S(token_hash), DB_S(label), DB_I(server_now_ms())))
        return false;
    bool ok = r.rows == 1;
    if (ok) *id = db_int(&r, 0, 0);
    db_rows_free(&r);
    return ok;
}

/* A token's last use is written at most once a minute: a script polling
 * the API would otherwise turn every read into a write. */
enum { TOKEN_USE_RESOLUTION_MS = 60 * 1000 };

bool store_token_user(Store *s, const char *token_hash, int64_t *user, char **name)
{
    *user = 0;
    *name = NULL;
    DbRows r;
    if (RUN(s,
            "SELECT u.id, u.name, t.id, t.last_used FROM api_tokens t JOIN users u ON u.id = t.user_id "
            "WHERE t.token_hash = $1",
            &r, DB_S(token_hash)))
        return false;
    bool ok = true;
    if (r.rows == 1) {
        int64_t now = server_now_ms(), token = db_int(&r, 0, 2);
        bool stale_use = !db_text(&r, 0, 3) || now - db_int(&r, 0, 3) > TOKEN_USE_RESOLUTION_MS;
        *name = strdup(db_text(&r, 0, 1));
        ok = *name != NULL;
        if (ok) *user = db_int(&r, 0, 0);
        /* The time of use is a convenience for the account page: a failure
         * to write it does not refuse the request. */
        if (ok && stale_use)
            RUN(s, "UPDATE api_tokens SET last_used = $1 WHERE id = $2", NULL, DB_I(now), DB_I(token));
    }
    db_rows_free(&r);
    return ok;
}

bool store_tokens_of(Store *s, int64_t user, json_t *out)
{
    DbRows r;
    if (RUN(s, "SELECT id, label, created, last_used FROM api_tokens WHERE user_id = $1 ORDER BY id", &r, DB_I(user)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        json_t *used = db_text(&r, i, 3) ? json_integer(db_int(&r, i, 3)) : json_null();
        json_t *e = json_pack("{s:I, s:s, s:I, s:o}", "id", (json_int_t)db_int(&r, i, 0), "label", db_text(&r, i, 1),
                              "created", (json_int_t)db_int(&r, i, 2), "last_used", used);
        ok = e && !json_array_append_new(out, e);
    }
    db_rows_free(&r);
    return ok;
}

bool store_token_remove(Store *s, int64_t user, int64_t id, bool *found)
{
    DbRows r;
    *found = false;
    if (RUN(s, "DELETE FROM api_tokens WHERE id = $1 AND user_id = $2 RETURNING id", &r, DB_I(id), DB_I(user)))
        return false;
    *found = r.rows == 1;
    db_rows_free(&r);
    return true;
}

bool store_block_add(Store *s, int64_t user, int64_t blocked)
{
    DbStatus st = RUN(s, "INSERT INTO blocks(user_id, blocked_id) VALUES ($1, $2)", NULL, DB_I(user), DB_I(blocked));
    return st == DB_OK || st == DB_CONFLICT;   /* blocked already: the same list */
}

bool store_block_remove(Store *s, int64_t user, int64_t blocked, bool *found)
{
    DbRows r;
    *found = false;
    if (RUN(s, "DELETE FROM blocks WHERE user_id = $1 AND blocked_id = $2 RETURNING user_id", &r, DB_I(user),
            DB_I(blocked)))
        return false;
    *found = r.rows == 1;
    db_rows_free(&r);
    return true;
}

bool store_blocks_of(Store *s, int64_t user, json_t *out)
{
    DbRows r;
    if (RUN(s, "SELECT u.name FROM blocks b JOIN users u ON u.id = b.blocked_id WHERE b.user_id = $1 ORDER BY lower(u.name)",
            &r, DB_I(user)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) ok = !json_array_append_new(out, json_string(db_text(&r, i, 0)));
    db_rows_free(&r);
    return ok;
}

bool store_blocked(Store *s, int64_t user, int64_t by, bool *blocked)
{
    DbRows r;
    *blocked = false;
    if (RUN(s, "SELECT 1 FROM blocks WHERE user_id = $1 AND blocked_id = $2", &r, DB_I(by), DB_I(user))) return false;
    *blocked = r.rows > 0;
    db_rows_free(&r);
    return true;
}

/* Counting and writing in one transaction is atomic on SQLite, whose
 * transactions here take the writer's lock at BEGIN (BEGIN IMMEDIATE):
 * a second request counts only after the first has committed.  On
 * PostgreSQL two transactions may count at once; locking the player's
 * row first makes the second wait for the first's commit. */
bool store_lock_user(Store *s, int64_t user)
{
    if (!s->driver->notify) return true;
    return RUN(s, "SELECT id FROM users WHERE id = $1 FOR UPDATE", NULL, DB_I(user)) == DB_OK;
}

bool store_session_add(Store *s, const char *token_hash, int64_t user, int64_t expires_ms)
{
    return RUN(s, "INSERT INTO sessions(token_hash, user_id, expires) VALUES ($1, $2, $3)", NULL, DB_S(token_hash),
               DB_I(user), DB_I(expires_ms)) == DB_OK;
}

bool store_session_user(Store *s, const char *token_hash, int64_t now_ms, int64_t *user, char **name)
{
    *user = 0;
    *name = NULL;
    DbRows r;
    if (RUN(s,
            "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id "
            "WHERE s.token_hash = $1 AND s.expires > $2",
            &r, DB_S(token_hash), DB_I(now_ms)))
        return false;
    bool ok = true;
    if (r.rows == 1) {
        *name = strdup(db_text(&r, 0, 1));
        ok = *name != NULL;
        if (ok) *user = db_int(&r, 0, 0);
    }
    db_rows_free(&r);
    return ok;
}

bool store_session_remove(Store *s, const char *token_hash)
{
    return RUN(s, "DELETE FROM sessions WHERE token_hash = $1", NULL, DB_S(token_hash)) == DB_OK;
}

/* ---- Games -------------------------------------------------------------- */

static char *dup_cell(const DbRows *r, int row, int col)
{
    const char *v = db_text(r, row, col);
    return v ? strdup(v) : NULL;
}

/* A game's row: its columns, their statements, and the binding and the
 * reading of them are described once, in store_rows.c. */

bool store_game_add(Store *s, const GameRow *g)
{
    DbValue values[GAME_ROW_COLUMNS + 1];
    int n = game_row_values(g, GAME_INSERT, values);
    values[n++] = DB_I(server_now_ms());
    return run(s, game_insert_sql(), values, n, NULL) == DB_OK;
}

bool store_game_update(Store *s, const GameRow *g, bool *stale)
{
    *stale = false;
    DbValue values[GAME_ROW_COLUMNS + 2];
    int n = game_row_values(g, GAME_UPDATE, values);
    values[n++] = DB_S(g->id);
    values[n++] = DB_I(g->version);
    DbRows r;
    if (run(s, game_update_sql(), values, n, &r)) return false;
    *stale = r.rows == 0;
    db_rows_free(&r);
    if (!*stale && held.store == s && held.transaction && strlen(g->id) < sizeof held.locked)
        snprintf(held.locked, sizeof held.locked, "%s", g->id);
    /* Every end of a game is this write of its row (an action, a flag of
     * the clocks' timer): a rated game's players' ratings change in the
     * same transaction, once (store_ratings.c). */
    return !*stale && store_ratings_settle(s, g);
}

bool store_game_get(Store *s, const char *id, GameRow *out, bool *found)
{
    *found = false;
    DbRows r;
    if (RUN(s, game_select_sql(" FROM games g WHERE g.id = $1"), &r, DB_S(id))) return false;
    if (r.rows == 1) {
        game_row_read(&r, 0, out);
        *found = true;
    }
    db_rows_free(&r);
    return true;
}

bool store_game_by_invite(Store *s, const char *token, char **id)
{
    *id = NULL;
    DbRows r;
    if (RUN(s, "SELECT id FROM games WHERE invite_token = $1", &r, DB_S(token))) return false;
    if (r.rows == 1) *id = dup_cell(&r, 0, 0);
    db_rows_free(&r);
    return *id != NULL;
}

bool store_actions(Store *s, const char *game, char ***texts, int *count)
{
    return store_actions_after(s, game, 0, texts, count);
}

bool store_actions_after(Store *s, const char *game, int after, char ***texts, int *count)
{
    *texts = NULL;
    *count = 0;
    DbRows r;
    if (RUN(s, "SELECT coord FROM actions WHERE game_id = $1 AND ply > $2 ORDER BY ply", &r, DB_S(game), DB_I(after)))
        return false;
    /* The cells change hands: the rows' array of strings becomes the list. */
    bool ok = true;
    if (r.rows) {
        *texts = malloc((size_t)r.rows * sizeof **texts);
        ok = *texts != NULL;
        for (int i = 0; ok && i < r.rows; i++) {
            (*texts)[i] = r.cell[i];
            r.cell[i] = NULL;
            ok = (*texts)[i] != NULL;
            *count = i + ok;
        }
    }
    db_rows_free(&r);
    return ok;
}

bool store_action_add(Store *s, const char *game, int ply, const char *coord, const char *human, int64_t at,
                      bool *stale)
{
    DbStatus st = RUN(s, "INSERT INTO actions(game_id, ply, coord, human, at) VALUES ($1, $2, $3, $4, $5)", NULL,
                      DB_S(game), DB_I(ply), DB_S(coord), DB_S(human), DB_I(at));
    /* The primary key (game, ply) is what makes a resent action apply
     * once, whatever the server's own checks said before. */
    *stale = st == DB_CONFLICT;
    return st == DB_OK;
}

bool store_action_remove_last(Store *s, const char *game, int ply)
{
    return RUN(s, "DELETE FROM actions WHERE game_id = $1 AND ply = $2", NULL, DB_S(game), DB_I(ply)) == DB_OK;
}

/* Live streams read a game's events after the last id they sent, so ids
 * must appear in the order of their commits.  SQLite has one writer at a
 * time; on PostgreSQL two transactions could take ids 7 and 8 and commit
 * 8 first, and a stream reading then would never see 7.  Locking the
 * game's row before taking an id orders a game's events as they commit.
 * The other servers hear of the event after the transaction commits
 * (store_notify.c). */
bool store_event_add(Store *s, const char *game, const char *type, int ply, const char *data, int64_t *id)
{
    store_enter(s);
    DbRows r = { 0 };
    /* A transaction that wrote the game's row holds its lock already (an
     * action's does): one statement fewer. */
    bool locked = held.transaction && !strcmp(held.locked, game);
    bool ok = (!s->driver->notify || locked ||
               RUN(s, "SELECT id FROM games WHERE id = $1 FOR UPDATE", NULL, DB_S(game)) == DB_OK) &&
              RUN(s, "INSERT INTO events(game_id, type, ply, data) VALUES ($1, $2, $3, $4) RETURNING id", &r,
                  DB_S(game), DB_S(type), DB_I(ply), DB_S(data)) == DB_OK &&
              r.rows == 1;
    if (ok) notify_after_commit(s);
    if (ok && id) *id = db_int(&r, 0, 0);
    db_rows_free(&r);
    store_leave(s);
    return ok;
}

bool store_events_after(Store *s, const char *game, int64_t after, json_t *out)
{
    DbRows r;
    if (RUN(s, "SELECT id, type, ply, data FROM events WHERE game_id = $1 AND id > $2 ORDER BY id", &r, DB_S(game),
            DB_I(after)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        json_t *e = json_pack("{s:I, s:s, s:I, s:s}", "id", (json_int_t)db_int(&r, i, 0), "type", db_text(&r, i, 1),
                              "ply", (json_int_t)db_int(&r, i, 2), "data", db_text(&r, i, 3));
        ok = e && !json_array_append_new(out, e);
    }
    db_rows_free(&r);
    return ok;
}

bool store_game_created(Store *s, const char *game, int64_t *created)
{
    DbRows r;
    if (RUN(s, "SELECT created FROM games WHERE id = $1", &r, DB_S(game))) return false;
    *created = r.rows == 1 ? db_int(&r, 0, 0) : 0;
    db_rows_free(&r);
    return true;
}

bool store_kibitz_add(Store *s, const char *game, int64_t user, const char *text, int64_t at)
{
    return RUN(s, "INSERT INTO kibitz(game_id, user_id, text, at) VALUES ($1, $2, $3, $4)", NULL, DB_S(game),
               DB_I(user), DB_S(text), DB_I(at)) == DB_OK;
}

bool store_kibitz_list(Store *s, const char *game, json_t *out)
{
    DbRows r;
    if (RUN(s,
            "SELECT CASE WHEN u.deleted <> 0 THEN 'deleted' ELSE u.name END, k.text, k.at FROM kibitz k JOIN users u ON u.id = k.user_id "
            "WHERE k.game_id = $1 ORDER BY k.id",
            &r, DB_S(game)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        json_t *e = json_pack("{s:s, s:s, s:I}", "name", db_text(&r, i, 0), "text", db_text(&r, i, 1), "at",
                              (json_int_t)db_int(&r, i, 2));
        ok = e && !json_array_append_new(out, e);
    }
    db_rows_free(&r);
    return ok;
}

bool store_games_of(Store *s, int64_t user, json_t *out)
{
    /* "Your move" first: an active game where the side to move is the
     * player's; then the other active and waiting games; finished games
     * last, each group newest first. */
    DbRows r;
    if (RUN(s,
            game_select_sql(" FROM games g WHERE g.white = $1 OR g.black = $1 "
                            "ORDER BY g.status IN ('over', 'declined'), "
                            "(g.status = 'active' AND ((g.to_move = 0 AND g.white = $1) OR "
                            "(g.to_move = 1 AND g.black = $1))) DESC, g.last_action_at DESC, g.created DESC"),
            &r, DB_I(user)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        GameRow g;
        game_row_read(&r, i, &g);
        bool active = g.status && !strcmp(g.status, "active");
        bool yours = active && ((g.to_move == 0 && g.white == user) || (g.to_move == 1 && g.black == user));
        const char *white = g.white == -1 ? "ttchess engine" : g.white_name;
        const char *black = g.black == -1 ? "ttchess engine" : g.black_name;
        /* The other player: seated, or challenged and not (yet) seated. */
        const char *opponent = g.white == user ? black : white;
        if (!opponent) opponent = g.invited_name;
        json_t *e = json_pack("{s:s, s:s, s:s?, s:s?, s:s?, s:s, s:i, s:b, s:s?, s:s?, s:s}", "id", g.id ? g.id : "",
                              "variant", g.variant ? g.variant : "", "white", white, "black", black, "opponent",
                              opponent, "status", g.status ? g.status : "", "ply", g.ply, "your_move", yours,
                              "result", g.result, "reason", g.reason, "kind",
                              g.engine_level ? "engine" : g.days_per_move ? "correspondence" : "live");
        store_game_free(&g);
        ok = e && !json_array_append_new(out, e);
    }
    db_rows_free(&r);
    return ok;
}

bool store_engine_games(Store *s, json_t *out)
{
    DbRows r;
    if (RUN(s,
            "SELECT id FROM games WHERE status = 'active' AND (white = $1 OR black = $1) "
            "ORDER BY last_action_at",
            &r, DB_I(-1)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) ok = !json_array_append_new(out, json_string(db_text(&r, i, 0)));
    db_rows_free(&r);
    return ok;
}

bool store_clock_games(Store *s, json_t *out)
{
    DbRows r;
    if (RUN(s,
            "SELECT id FROM games WHERE status = $1 AND last_action_at > 0 AND (base_ms > 0 OR days_per_move > 0) "
            "ORDER BY last_action_at",
            &r, DB_S("active")))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) ok = !json_array_append_new(out, json_string(db_text(&r, i, 0)));
    db_rows_free(&r);
    return ok;
}

/* One number a query counts, or -1 on a database error. */
static int64_t count_of(DbStatus st, DbRows *r)
{
    int64_t n = st == DB_OK && r->rows == 1 ? db_int(r, 0, 0) : -1;
    if (st == DB_OK) db_rows_free(r);
    return n;
}

int64_t store_kibitz_count_since(Store *s, int64_t user, int64_t since)
{
    DbRows r;
    DbStatus st = RUN(s, "SELECT count(*) FROM kibitz WHERE user_id = $1 AND at >= $2", &r, DB_I(user), DB_I(since));
    return count_of(st, &r);
}

int64_t store_games_unfinished(Store *s, int64_t user)
{
    DbRows r;
    DbStatus st = RUN(s,
                      "SELECT count(*) FROM games WHERE status IN ('waiting', 'active', 'challenge', 'seek') "
                      "AND (white = $1 OR black = $1)",
                      &r, DB_I(user));
    return count_of(st, &r);
}

int64_t store_challenges_sent(Store *s, int64_t user)
{
    DbRows r;
    DbStatus st = RUN(s, "SELECT count(*) FROM games WHERE status = 'challenge' AND creator = $1", &r, DB_I(user));
    return count_of(st, &r);
}

int64_t store_tokens_count(Store *s, int64_t user)
{
    DbRows r;
    DbStatus st = RUN(s, "SELECT count(*) FROM api_tokens WHERE user_id = $1", &r, DB_I(user));
    return count_of(st, &r);
}

bool store_challenges_of(Store *s, int64_t user, json_t *out)
{
    DbRows r;
    if (RUN(s,
            game_select_sql(", g.created FROM games g WHERE g.status = 'challenge' AND g.invited = $1 "
                            "ORDER BY g.created DESC"),
            &r, DB_I(user)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        GameRow g;
        game_row_read(&r, i, &g);
        const Variant *v = variant_find(g.variant ? g.variant : "");
        char time[48];
        if (g.days_per_move) snprintf(time, sizeof time, "%d day%s", g.days_per_move, g.days_per_move == 1 ? "" : "s");
        else snprintf(time, sizeof time, "%g+%g", (double)g.base_ms / 60000, (double)g.inc_ms / 1000);
        json_t *e = json_pack("{s:s, s:s, s:s, s:s?, s:s, s:s, s:s?, s:I}", "id", g.id ? g.id : "", "variant",
                              g.variant ? g.variant : "", "title", v ? v->title : "", "from",
                              g.white ? g.white_name : g.black_name, "color", g.white ? "black" : "white", "time", time,
                              "options", g.options, "created", (json_int_t)db_int(&r, i, GAME_ROW_COLUMNS));
        store_game_free(&g);
        ok = e && !json_array_append_new(out, e);
    }
    db_rows_free(&r);
    return ok;
}

/* ---- Open challenges (seeks) and games being played (issue 27) ---------- */

/* A game's time control in a lobby's words: "5+3" or "3 days". */
static void time_words(const GameRow *g, char out[48])
{
    if (g->days_per_move) snprintf(out, 48, "%d day%s", g->days_per_move, g->days_per_move == 1 ? "" : "s");
    else snprintf(out, 48, "%g+%g", (double)g->base_ms / 60000, (double)g->inc_ms / 1000);
}

int64_t store_seeks_open(Store *s, int64_t user)
{
    DbRows r;
    DbStatus st = RUN(s, "SELECT count(*) FROM games WHERE status = 'seek' AND creator = $1", &r, DB_I(user));
    return count_of(st, &r);
}

/* The open challenges, newest first, and the games in play that moved
 * last (at most 100 and 20: a lobby is a page, not an archive). */
bool store_lobby(Store *s, json_t *seeks, json_t *playing)
{
    DbRows r;
    if (RUN(s, game_select_sql(", g.created FROM games g WHERE g.status = $1 ORDER BY g.created DESC LIMIT 100"),
            &r, DB_S("seek")))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        GameRow g;
        game_row_read(&r, i, &g);
        const Variant *v = variant_find(g.variant ? g.variant : "");
        char time[48];
        time_words(&g, time);
        json_t *e = json_pack("{s:s, s:s, s:s, s:s?, s:s, s:s, s:s, s:s?, s:I}", "id", g.id ? g.id : "", "variant",
                              g.variant ? g.variant : "", "title", v ? v->title : "", "from",
                              g.white ? g.white_name : g.black_name, "color", g.white ? "black" : "white", "time", time,
                              "kind", g.days_per_move ? "correspondence" : "live", "options", g.options, "created",
                              (json_int_t)db_int(&r, i, GAME_ROW_COLUMNS));
        store_game_free(&g);
        ok = e && !json_array_append_new(seeks, e);
    }
    db_rows_free(&r);
    if (!ok) return false;
    if (RUN(s, game_select_sql(" FROM games g WHERE g.status = $1 "
                               "ORDER BY g.last_action_at DESC, g.created DESC LIMIT 20"),
            &r, DB_S("active")))
        return false;
    for (int i = 0; ok && i < r.rows; i++) {
        GameRow g;
        game_row_read(&r, i, &g);
        const Variant *v = variant_find(g.variant ? g.variant : "");
        char time[48];
        time_words(&g, time);
        json_t *e = json_pack("{s:s, s:s, s:s, s:s?, s:s?, s:i, s:s, s:s}", "id", g.id ? g.id : "", "variant",
                              g.variant ? g.variant : "", "title", v ? v->title : "", "white",
                              g.white == -1 ? "ttchess engine" : g.white_name, "black",
                              g.black == -1 ? "ttchess engine" : g.black_name, "ply", g.ply, "time", time, "kind",
                              g.days_per_move ? "correspondence" : "live");
        store_game_free(&g);
        ok = e && !json_array_append_new(playing, e);
    }
    db_rows_free(&r);
    return ok;
}
