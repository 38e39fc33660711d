/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The database of ttchess serve: SQLite in WAL mode with synchronous=FULL,
 * so that a transaction is on disk when COMMIT returns and an action
 * acknowledged to a player survives a crash.  Every statement is prepared
 * with bound parameters: no text a user sent is ever part of SQL.
 *
 * The schema is versioned by PRAGMA user_version; MIGRATIONS[i] takes the
 * database from version i to i + 1, and store_open runs the ones missing.
 *
 * One connection serves the whole server, guarded by Store.lock: the
 * server's requests are short, and SQLite allows one writer anyway.
 */
#include "server.h"

#include <stdlib.h>
#include <string.h>

static const char *const MIGRATIONS[] = {
    /* 0 -> 1: accounts, sessions, games, actions, events, kibitz. */
    "CREATE TABLE users ("
    "  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE COLLATE NOCASE,"
    "  hash TEXT NOT NULL, created INTEGER NOT NULL);"
    "CREATE TABLE sessions ("
    "  token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),"
    "  expires INTEGER NOT NULL);"
    "CREATE TABLE games ("
    "  id TEXT PRIMARY KEY, variant TEXT NOT NULL, options TEXT, fen TEXT,"
    "  white INTEGER NOT NULL, black INTEGER NOT NULL, creator INTEGER NOT NULL,"
    "  invited INTEGER NOT NULL, invite_token TEXT UNIQUE,"
    "  base_ms INTEGER NOT NULL, inc_ms INTEGER NOT NULL, days_per_move INTEGER NOT NULL,"
    "  engine_level INTEGER NOT NULL, white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,"
    "  last_action_at INTEGER NOT NULL, status TEXT NOT NULL, result TEXT, reason TEXT,"
    "  draw_offer INTEGER NOT NULL, takeback_offer INTEGER NOT NULL, kibitz INTEGER NOT NULL,"
    "  to_move INTEGER NOT NULL, declared TEXT, created INTEGER NOT NULL);"
    "CREATE TABLE actions ("
    "  game_id TEXT NOT NULL REFERENCES games(id), ply INTEGER NOT NULL,"
    "  coord TEXT NOT NULL, human TEXT NOT NULL, at INTEGER NOT NULL,"
    "  PRIMARY KEY (game_id, ply));"
    "CREATE TABLE events ("
    "  id INTEGER PRIMARY KEY AUTOINCREMENT, game_id TEXT NOT NULL REFERENCES games(id),"
    "  type TEXT NOT NULL, ply INTEGER NOT NULL, data TEXT NOT NULL);"
    "CREATE INDEX events_game ON events(game_id, id);"
    "CREATE TABLE kibitz ("
    "  id INTEGER PRIMARY KEY, game_id TEXT NOT NULL REFERENCES games(id),"
    "  user_id INTEGER NOT NULL REFERENCES users(id), text TEXT NOT NULL, at INTEGER NOT NULL);"
    "CREATE INDEX kibitz_game ON kibitz(game_id, id);",
};
enum { SCHEMA_VERSION = sizeof MIGRATIONS / sizeof MIGRATIONS[0] };

/* ---- Helpers ------------------------------------------------------------ */

/* A statement prepared for one call, or NULL (the caller treats that as a
 * database error).  Statements are prepared per call rather than cached:
 * the server's requests are few, and caching can come with the load work
 * of issue 12 if it shows. */
static sqlite3_stmt *prepare(Store *s, const char *sql)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(s->db, sql, -1, &st, NULL) != SQLITE_OK) return NULL;
    return st;
}

static void bind_text_or_null(sqlite3_stmt *st, int i, const char *v)
{
    if (v) sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
    else sqlite3_bind_null(st, i);
}

static char *column_dup(sqlite3_stmt *st, int i)
{
    const unsigned char *v = sqlite3_column_text(st, i);
    return v ? strdup((const char *)v) : NULL;
}

/* Runs a statement that returns no rows. */
static bool run_done(sqlite3_stmt *st)
{
    if (!st) return false;
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

static bool exec(Store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK;
}

/* ---- Opening ------------------------------------------------------------ */

static bool migrate(Store *s, Text *err)
{
    sqlite3_stmt *st = prepare(s, "PRAGMA user_version");
    int version = 0;
    if (st && sqlite3_step(st) == SQLITE_ROW) version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    if (version > (int)SCHEMA_VERSION)
        return text_fail(err, "the database is of a newer ttchess (schema %d, this one knows %d)", version,
                         (int)SCHEMA_VERSION);
    for (int v = version; v < (int)SCHEMA_VERSION; v++) {
        char pragma[64];
        snprintf(pragma, sizeof pragma, "PRAGMA user_version = %d", v + 1);
        if (!exec(s, "BEGIN IMMEDIATE") || !exec(s, MIGRATIONS[v]) || !exec(s, pragma) || !exec(s, "COMMIT")) {
            text_fail(err, "could not bring the database to schema %d: %s", v + 1, sqlite3_errmsg(s->db));
            exec(s, "ROLLBACK");
            return false;
        }
    }
    return true;
}

bool store_open(Store *s, const char *path, Text *err)
{
    memset(s, 0, sizeof *s);
    if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, NULL) !=
        SQLITE_OK) {
        text_fail(err, "cannot open the database %s: %s", path, s->db ? sqlite3_errmsg(s->db) : "out of memory");
        sqlite3_close(s->db);
        s->db = NULL;
        return false;
    }
    sqlite3_busy_timeout(s->db, 5000);
    /* WAL keeps readers and the writer apart; FULL syncs the log at every
     * commit, which is what "committed before acknowledged" needs. */
    if (!exec(s, "PRAGMA journal_mode=WAL") || !exec(s, "PRAGMA synchronous=FULL") ||
        !exec(s, "PRAGMA foreign_keys=ON") || !migrate(s, err)) {
        if (!err->len) text_fail(err, "cannot set up the database %s: %s", path, sqlite3_errmsg(s->db));
        sqlite3_close(s->db);
        s->db = NULL;
        return false;
    }
    pthread_mutex_init(&s->lock, NULL);
    return true;
}

void store_close(Store *s)
{
    if (!s->db) return;
    sqlite3_close(s->db);
    s->db = NULL;
    pthread_mutex_destroy(&s->lock);
}

bool store_begin(Store *s) { return exec(s, "BEGIN IMMEDIATE"); }
bool store_commit(Store *s) { return exec(s, "COMMIT"); }
void store_rollback(Store *s) { exec(s, "ROLLBACK"); }

/* ---- Accounts ----------------------------------------------------------- */

bool store_user_add(Store *s, const char *name, const char *hash, int64_t *id, bool *taken)
{
    *taken = false;
    sqlite3_stmt *st = prepare(s, "INSERT INTO users(name, hash, created) VALUES (?, ?, ?)");
    if (!st) return false;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 3, server_now_ms());
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    if (rc == SQLITE_CONSTRAINT) {
        *taken = true;
        return false;
    }
    if (rc != SQLITE_DONE) return false;
    *id = sqlite3_last_insert_rowid(s->db);
    return true;
}

bool store_user_hash(Store *s, const char *name, int64_t *id, char **hash)
{
    *hash = NULL;
    sqlite3_stmt *st = prepare(s, "SELECT id, hash FROM users WHERE name = ?");
    if (!st) return false;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    if (ok) {
        *id = sqlite3_column_int64(st, 0);
        *hash = column_dup(st, 1);
    }
    sqlite3_finalize(st);
    return ok && *hash;
}

bool store_user_id(Store *s, const char *name, int64_t *id)
{
    sqlite3_stmt *st = prepare(s, "SELECT id FROM users WHERE name = ?");
    if (!st) return false;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    if (ok) *id = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return ok;
}

bool store_session_add(Store *s, const char *token_hash, int64_t user, int64_t expires_ms)
{
    sqlite3_stmt *st = prepare(s, "INSERT INTO sessions(token_hash, user_id, expires) VALUES (?, ?, ?)");
    if (!st) return false;
    sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, user);
    sqlite3_bind_int64(st, 3, expires_ms);
    return run_done(st);
}

bool store_session_user(Store *s, const char *token_hash, int64_t now_ms, int64_t *user, char **name)
{
    sqlite3_stmt *st = prepare(s, "SELECT u.id, u.name FROM sessions s JOIN users u ON u.id = s.user_id "
                                  "WHERE s.token_hash = ? AND s.expires > ?");
    if (!st) return false;
    sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, now_ms);
    bool ok = sqlite3_step(st) == SQLITE_ROW;
    if (ok) {
        *user = sqlite3_column_int64(st, 0);
        *name = column_dup(st, 1);
        ok = *name != NULL;
    }
    sqlite3_finalize(st);
    return ok;
}

bool store_session_remove(Store *s, const char *token_hash)
{
    sqlite3_stmt *st = prepare(s, "DELETE FROM sessions WHERE token_hash = ?");
    if (!st) return false;
    sqlite3_bind_text(st, 1, token_hash, -1, SQLITE_TRANSIENT);
    return run_done(st);
}

/* ---- Games -------------------------------------------------------------- */

#define GAME_COLUMNS                                                                                         \
    "g.id, g.variant, g.options, g.fen, g.white, g.black, g.creator, g.invited, g.invite_token, g.base_ms, " \
    "g.inc_ms, g.days_per_move, g.engine_level, g.white_ms, g.black_ms, g.last_action_at, g.status, "      \
    "g.result, g.reason, g.draw_offer, g.takeback_offer, g.kibitz, "                                        \
    "(SELECT name FROM users WHERE id = g.white), (SELECT name FROM users WHERE id = g.black), "            \
    "(SELECT COUNT(*) FROM actions WHERE game_id = g.id), g.to_move, g.declared"

static void read_game(sqlite3_stmt *st, GameRow *g)
{
    memset(g, 0, sizeof *g);
    g->id = column_dup(st, 0);
    g->variant = column_dup(st, 1);
    g->options = column_dup(st, 2);
    g->fen = column_dup(st, 3);
    g->white = sqlite3_column_int64(st, 4);
    g->black = sqlite3_column_int64(st, 5);
    g->creator = sqlite3_column_int64(st, 6);
    g->invited = sqlite3_column_int64(st, 7);
    g->invite_token = column_dup(st, 8);
    g->base_ms = sqlite3_column_int64(st, 9);
    g->inc_ms = sqlite3_column_int64(st, 10);
    g->days_per_move = sqlite3_column_int(st, 11);
    g->engine_level = sqlite3_column_int(st, 12);
    g->white_ms = sqlite3_column_int64(st, 13);
    g->black_ms = sqlite3_column_int64(st, 14);
    g->last_action_at = sqlite3_column_int64(st, 15);
    g->status = column_dup(st, 16);
    g->result = column_dup(st, 17);
    g->reason = column_dup(st, 18);
    g->draw_offer = sqlite3_column_int(st, 19);
    g->takeback_offer = sqlite3_column_int(st, 20);
    g->kibitz = sqlite3_column_int(st, 21) != 0;
    g->white_name = column_dup(st, 22);
    g->black_name = column_dup(st, 23);
    g->ply = sqlite3_column_int(st, 24);
    g->to_move = sqlite3_column_int(st, 25);
    g->declared = column_dup(st, 26);
}

void store_game_free(GameRow *g)
{
    free(g->id);
    free(g->variant);
    free(g->options);
    free(g->fen);
    free(g->invite_token);
    free(g->white_name);
    free(g->black_name);
    free(g->status);
    free(g->result);
    free(g->reason);
    free(g->declared);
    memset(g, 0, sizeof *g);
}

bool store_game_add(Store *s, const GameRow *g)
{
    sqlite3_stmt *st = prepare(
        s, "INSERT INTO games(id, variant, options, fen, white, black, creator, invited, invite_token, base_ms, "
           "inc_ms, days_per_move, engine_level, white_ms, black_ms, last_action_at, status, result, reason, "
           "draw_offer, takeback_offer, kibitz, to_move, created) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    if (!st) return false;
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, g->variant, -1, SQLITE_TRANSIENT);
    bind_text_or_null(st, 3, g->options);
    bind_text_or_null(st, 4, g->fen);
    sqlite3_bind_int64(st, 5, g->white);
    sqlite3_bind_int64(st, 6, g->black);
    sqlite3_bind_int64(st, 7, g->creator);
    sqlite3_bind_int64(st, 8, g->invited);
    bind_text_or_null(st, 9, g->invite_token);
    sqlite3_bind_int64(st, 10, g->base_ms);
    sqlite3_bind_int64(st, 11, g->inc_ms);
    sqlite3_bind_int(st, 12, g->days_per_move);
    sqlite3_bind_int(st, 13, g->engine_level);
    sqlite3_bind_int64(st, 14, g->white_ms);
    sqlite3_bind_int64(st, 15, g->black_ms);
    sqlite3_bind_int64(st, 16, g->last_action_at);
    sqlite3_bind_text(st, 17, g->status, -1, SQLITE_TRANSIENT);
    bind_text_or_null(st, 18, g->result);
    bind_text_or_null(st, 19, g->reason);
    sqlite3_bind_int(st, 20, g->draw_offer);
    sqlite3_bind_int(st, 21, g->takeback_offer);
    sqlite3_bind_int(st, 22, g->kibitz);
    sqlite3_bind_int(st, 23, g->to_move);
    sqlite3_bind_int64(st, 24, server_now_ms());
    return run_done(st);
}

bool store_game_update(Store *s, const GameRow *g)
{
    sqlite3_stmt *st = prepare(s, "UPDATE games SET white = ?, black = ?, invite_token = ?, white_ms = ?, "
                                  "black_ms = ?, last_action_at = ?, status = ?, result = ?, reason = ?, "
                                  "draw_offer = ?, takeback_offer = ?, kibitz = ?, to_move = ?, declared = ? WHERE id = ?");
    if (!st) return false;
    sqlite3_bind_int64(st, 1, g->white);
    sqlite3_bind_int64(st, 2, g->black);
    bind_text_or_null(st, 3, g->invite_token);
    sqlite3_bind_int64(st, 4, g->white_ms);
    sqlite3_bind_int64(st, 5, g->black_ms);
    sqlite3_bind_int64(st, 6, g->last_action_at);
    sqlite3_bind_text(st, 7, g->status, -1, SQLITE_TRANSIENT);
    bind_text_or_null(st, 8, g->result);
    bind_text_or_null(st, 9, g->reason);
    sqlite3_bind_int(st, 10, g->draw_offer);
    sqlite3_bind_int(st, 11, g->takeback_offer);
    sqlite3_bind_int(st, 12, g->kibitz);
    sqlite3_bind_int(st, 13, g->to_move);
    bind_text_or_null(st, 14, g->declared);
    sqlite3_bind_text(st, 15, g->id, -1, SQLITE_TRANSIENT);
    return run_done(st);
}

bool store_game_get(Store *s, const char *id, GameRow *out, bool *found)
{
    *found = false;
    sqlite3_stmt *st = prepare(s, "SELECT " GAME_COLUMNS " FROM games g WHERE g.id = ?");
    if (!st) return false;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
        read_game(st, out);
        *found = true;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_ROW || rc == SQLITE_DONE;
}

bool store_game_by_invite(Store *s, const char *token, char **id)
{
    *id = NULL;
    sqlite3_stmt *st = prepare(s, "SELECT id FROM games WHERE invite_token = ?");
    if (!st) return false;
    sqlite3_bind_text(st, 1, token, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) == SQLITE_ROW) *id = column_dup(st, 0);
    sqlite3_finalize(st);
    return *id != NULL;
}

bool store_actions(Store *s, const char *game, char ***texts, int *count)
{
    *texts = NULL;
    *count = 0;
    sqlite3_stmt *st = prepare(s, "SELECT coord FROM actions WHERE game_id = ? ORDER BY ply");
    if (!st) return false;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    int cap = 0, rc;
    bool ok = true;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        if (*count == cap) {
            cap = cap ? 2 * cap : 64;
            char **grown = realloc(*texts, (size_t)cap * sizeof **texts);
            if (!grown) {
                ok = false;
                break;
            }
            *texts = grown;
        }
        char *t = column_dup(st, 0);
        if (!t) {
            ok = false;
            break;
        }
        (*texts)[(*count)++] = t;
    }
    sqlite3_finalize(st);
    return ok && (rc == SQLITE_DONE || rc == SQLITE_ROW);
}

bool store_action_add(Store *s, const char *game, int ply, const char *coord, const char *human, int64_t at,
                      bool *stale)
{
    *stale = false;
    sqlite3_stmt *st = prepare(s, "INSERT INTO actions(game_id, ply, coord, human, at) VALUES (?, ?, ?, ?, ?)");
    if (!st) return false;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, ply);
    sqlite3_bind_text(st, 3, coord, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 4, human, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 5, at);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    /* The primary key (game, ply) is what makes a resent action apply
     * once, whatever the server's own checks said before. */
    if (rc == SQLITE_CONSTRAINT) *stale = true;
    return rc == SQLITE_DONE;
}

bool store_action_remove_last(Store *s, const char *game, int ply)
{
    sqlite3_stmt *st = prepare(s, "DELETE FROM actions WHERE game_id = ? AND ply = ?");
    if (!st) return false;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 2, ply);
    return run_done(st);
}

bool store_event_add(Store *s, const char *game, const char *type, int ply, const char *data)
{
    sqlite3_stmt *st = prepare(s, "INSERT INTO events(game_id, type, ply, data) VALUES (?, ?, ?, ?)");
    if (!st) return false;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, type, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int(st, 3, ply);
    sqlite3_bind_text(st, 4, data, -1, SQLITE_TRANSIENT);
    return run_done(st);
}

bool store_events_after(Store *s, const char *game, int64_t after, json_t *out)
{
    sqlite3_stmt *st = prepare(s, "SELECT id, type, ply, data FROM events WHERE game_id = ? AND id > ? ORDER BY id");
    if (!st) return false;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, after);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *e = json_pack("{s:I, s:s, s:i, s:s}", "id", (json_int_t)sqlite3_column_int64(st, 0), "type",
                              (const char *)sqlite3_column_text(st, 1), "ply", sqlite3_column_int(st, 2), "data",
                              (const char *)sqlite3_column_text(st, 3));
        if (!e || json_array_append_new(out, e)) break;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

bool store_kibitz_add(Store *s, const char *game, int64_t user, const char *text, int64_t at)
{
    sqlite3_stmt *st = prepare(s, "INSERT INTO kibitz(game_id, user_id, text, at) VALUES (?, ?, ?, ?)");
    if (!st) return false;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, user);
    sqlite3_bind_text(st, 3, text, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, at);
    return run_done(st);
}

bool store_kibitz_list(Store *s, const char *game, json_t *out)
{
    sqlite3_stmt *st = prepare(s, "SELECT u.name, k.text, k.at FROM kibitz k JOIN users u ON u.id = k.user_id "
                                  "WHERE k.game_id = ? ORDER BY k.id");
    if (!st) return false;
    sqlite3_bind_text(st, 1, game, -1, SQLITE_TRANSIENT);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        json_t *e = json_pack("{s:s, s:s, s:I}", "name", (const char *)sqlite3_column_text(st, 0), "text",
                              (const char *)sqlite3_column_text(st, 1), "at", (json_int_t)sqlite3_column_int64(st, 2));
        if (!e || json_array_append_new(out, e)) break;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

bool store_games_of(Store *s, int64_t user, json_t *out)
{
    /* "Your move" first: an active game where the side to move is the
     * player's; then the other active and waiting games; finished games
     * last, each group newest first. */
    sqlite3_stmt *st = prepare(s, "SELECT " GAME_COLUMNS " FROM games g WHERE g.white = ?1 OR g.black = ?1 "
                                  "ORDER BY g.status = 'over', "
                                  "(g.status = 'active' AND ((g.to_move = 0 AND g.white = ?1) OR "
                                  "(g.to_move = 1 AND g.black = ?1))) DESC, g.last_action_at DESC, g.created DESC");
    if (!st) return false;
    sqlite3_bind_int64(st, 1, user);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        GameRow g;
        read_game(st, &g);
        bool active = g.status && !strcmp(g.status, "active");
        bool yours = active && ((g.to_move == 0 && g.white == user) || (g.to_move == 1 && g.black == user));
        const char *white = g.white == -1 ? "ttchess engine" : g.white_name;
        const char *black = g.black == -1 ? "ttchess engine" : g.black_name;
        json_t *e = json_pack("{s:s, s:s, s:s?, s:s?, s:s, s:i, s:b, s:s?, s:s?, s:s}", "id", g.id ? g.id : "",
                              "variant", g.variant ? g.variant : "", "white", white, "black", black,
                              "status", g.status ? g.status : "", "ply", g.ply, "your_move", yours, "result",
                              g.result, "reason", g.reason, "kind",
                              g.engine_level ? "engine" : g.days_per_move ? "correspondence" : "live");
        store_game_free(&g);
        if (!e || json_array_append_new(out, e)) break;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

bool store_engine_games(Store *s, json_t *out)
{
    sqlite3_stmt *st = prepare(s, "SELECT id FROM games WHERE status = 'active' AND (white = -1 OR black = -1) "
                                  "ORDER BY last_action_at");
    if (!st) return false;
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW)
        if (json_array_append_new(out, json_string((const char *)sqlite3_column_text(st, 0)))) break;
    sqlite3_finalize(st);
    return rc == SQLITE_DONE;
}

/* One number a query counts, or -1 on a database error. */
static int64_t count_of(sqlite3_stmt *st)
{
    if (!st) return -1;
    int64_t n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    return n;
}

int64_t store_kibitz_count_since(Store *s, int64_t user, int64_t since)
{
    sqlite3_stmt *st = prepare(s, "SELECT count(*) FROM kibitz WHERE user_id = ? AND at >= ?");
    if (st) {
        sqlite3_bind_int64(st, 1, user);
        sqlite3_bind_int64(st, 2, since);
    }
    return count_of(st);
}

int64_t store_games_unfinished(Store *s, int64_t user)
{
    sqlite3_stmt *st = prepare(s, "SELECT count(*) FROM games WHERE status <> 'over' AND (white = ?1 OR black = ?1)");
    if (st) sqlite3_bind_int64(st, 1, user);
    return count_of(st);
}
