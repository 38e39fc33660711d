/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess serve: the web server (docs/api.md).  A thin layer over the
 * library, in four parts, one file each:
 *
 *   store.c   the database: accounts, sessions, games, their actions
 *             and events, kibitz; over db.h's drivers, db_sqlite.c and
 *             db_pg.c (PostgreSQL, for several servers on one database)
 *   auth.c    passwords (libsodium's Argon2id), random tokens, the login
 *             rate limit
 *   play.c    a game as the library sees it: replayed from its stored
 *             actions, an action tried and stored, its state as JSON
 *   http.c    libmicrohttpd: requests, routes, cookies, the Origin check,
 *             security headers, Server-Sent Events
 *
 * serve.c parses the command line and starts the daemon.  The server keeps
 * no game in memory between requests: the database is the one truth, so
 * a crash loses nothing that was acknowledged (each action is committed
 * before its response is sent).
 */
#ifndef TTCHESS_SERVER_H
#define TTCHESS_SERVER_H

#include <jansson.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ttchess/game.h"
#include "ttchess/text.h"

/* The limits of docs/api.md, "Limits": named here so that the document
 * and the code say the same. */
enum {
    SERVER_MAX_BODY = 16 * 1024,        /* bytes of a request body              */
    SERVER_MAX_NAME = 32,               /* characters of a player's name        */
    SERVER_MIN_PASSWORD = 8,
    SERVER_MAX_PASSWORD = 256,
    SERVER_MAX_KIBITZ = 500,            /* bytes of one kibitz message          */
    SERVER_MAX_ACTION = 200,            /* bytes of one action's text           */
    SERVER_LOGIN_FAILURES = 5,          /* failed logins a name may have ...    */
    SERVER_LOGIN_WINDOW_S = 60,         /* ... within this many seconds         */
    SERVER_SESSION_DAYS = 30,
    SERVER_TOKEN_BYTES = 16,            /* 128 random bits: sessions, invitations */
    SERVER_SSE_KEEPALIVE_S = 15,
    SERVER_MAX_STREAMS_PER_CLIENT = 32, /* live streams open from one address    */
    SERVER_MAX_CONNECTIONS = 1024,      /* connections at once (a thread each)   */
    SERVER_MAX_UNFINISHED_GAMES = 100,  /* games waiting or in play per player   */
    SERVER_KIBITZ_BURST = 5,            /* kibitz messages a player may send ... */
    SERVER_KIBITZ_WINDOW_S = 30,        /* ... within this many seconds         */
    SERVER_CACHED_GAMES = 512,          /* games kept replayed (cache.c)        */
};

/* ---- store.c ------------------------------------------------------------ */

typedef struct Store {
    const struct DbDriver *driver;   /* SQLite or PostgreSQL (db.h)          */
    char *target;                    /* the --db argument                    */
    struct DbConn **conns;           /* the pool: a connection per request   */
    bool *busy;                      /* ... taken by a thread now            */
    int size;
    pthread_mutex_t pool_lock;
    pthread_cond_t pool_free;
    /* Other servers on the same database (PostgreSQL): a connection that
     * listens for their events and a thread that calls on_event. */
    struct DbConn *listener;
    pthread_t listen_thread;
    bool listening;
    atomic_bool stopping;
    void (*on_event)(void);
    struct GameCache *cache;         /* replayed games (cache.c), or NULL    */
    /* Called after an action is committed in a game with the engine in a
     * seat, so that the engine answers (opponent.c); NULL when no engine
     * plays (the tests and fuzzers of the API alone). */
    pthread_mutex_t hooks_lock;      /* guards wake_engine and wake_ctx      */
    void (*wake_engine)(void *ctx, const char *game);
    void *wake_ctx;
} Store;

/* A game's row (strings malloc'd; store_game_free frees them). */
typedef struct GameRow {
    char *id;
    char *variant, *options, *fen;   /* options and fen may be NULL         */
    int64_t white, black;            /* user ids; 0: open seat; -1: the engine */
    int64_t creator, invited;        /* invited: 0 when anyone with the link */
    char *invite_token;              /* NULL once the seat is taken         */
    char *white_name, *black_name;   /* NULL for an open seat               */
    int64_t base_ms, inc_ms;         /* live clock; 0 when correspondence   */
    int days_per_move;               /* correspondence; 0 when live         */
    int engine_level;                /* 1..10 against the engine, else 0    */
    int64_t white_ms, black_ms;      /* time left at the last action        */
    int64_t last_action_at;          /* ms since the epoch; 0: not started  */
    char *status;                    /* "waiting", "active", "over"         */
    char *result, *reason;           /* NULL while not over                 */
    int draw_offer, takeback_offer;  /* colour + 1 of the side offering, or 0 */
    bool kibitz;                     /* may spectators comment              */
    int ply;                         /* actions stored                      */
    int to_move;                     /* 0: White, 1: Black                  */
    char *declared;                  /* an end the players declared: "0-1 white resigns" */
    int64_t version;                 /* raised by every write of the row     */
} GameRow;

/* Opens the database of a --db argument: a SQLite file (created if need
 * be), or a postgresql:// URL; brings its schema up to date. */
bool store_open(Store *s, const char *target, Text *err);
void store_close(Store *s);
/* The schema version this server writes, and an opening that stops at an
 * older one (for the tests of the migrations). */
int store_schema_version(void);
bool store_open_at(Store *s, const char *target, int schema, Text *err);
/* Starts listening for other servers' events (PostgreSQL); on_event is
 * then called, from a thread of the store's, when there may be new ones. */
bool store_listen(Store *s, void (*on_event)(void), Text *err);
/* "sqlite" or "postgresql". */
const char *store_kind(const Store *s);
/* Every function below takes one of the pool's connections for itself;
 * store_enter/store_leave hold one across several calls (they nest). */
void store_enter(Store *s);
void store_leave(Store *s);
/* True when no connection is taken and no transaction open (the fuzzers
 * check that a request left none behind). */
bool store_idle(Store *s);
/* The pool's i-th connection, for the fuzzers' snapshots of a memory
 * database (db_sqlite_handle). */
struct DbConn *store_connection(Store *s, int i);

bool store_begin(Store *s);
bool store_commit(Store *s);
void store_rollback(Store *s);

/* Accounts and sessions.  store_user_add fails with *taken set when the
 * name is in use. */
bool store_user_add(Store *s, const char *name, const char *hash, int64_t *id, bool *taken);
/* The account's id and password hash; *hash NULL when there is no such
 * name; false only when the database cannot say. */
bool store_user_hash(Store *s, const char *name, int64_t *id, char **hash);
bool store_session_add(Store *s, const char *token_hash, int64_t user, int64_t expires_ms);
/* The session's player: *user 0 and *name NULL when there is none (an
 * unknown or expired token); false only when the database cannot say. */
bool store_session_user(Store *s, const char *token_hash, int64_t now_ms, int64_t *user, char **name);
bool store_session_remove(Store *s, const char *token_hash);
bool store_user_id(Store *s, const char *name, int64_t *id);

/* Games. */
bool store_game_add(Store *s, const GameRow *g);
bool store_game_get(Store *s, const char *id, GameRow *out, bool *found);
bool store_game_by_invite(Store *s, const char *token, char **id);
void store_game_free(GameRow *g);
/* Writes the game's changing columns (seats, clocks, status, offers);
 * *stale when the row has changed since it was read (its version). */
bool store_game_update(Store *s, const GameRow *g, bool *stale);
/* The game's actions in coordinate form, in play order (a malloc'd array
 * of malloc'd strings). */
bool store_actions(Store *s, const char *game, char ***texts, int *count);
/* Adds the action for ply `ply`; *stale when that ply is taken already. */
bool store_action_add(Store *s, const char *game, int ply, const char *coord, const char *human, int64_t at,
                      bool *stale);
bool store_action_remove_last(Store *s, const char *game, int ply);
/* Events: the live stream's history (SSE ids are their numbers). */
bool store_event_add(Store *s, const char *game, const char *type, int ply, const char *data);
bool store_events_after(Store *s, const char *game, int64_t after, json_t *out);
bool store_kibitz_add(Store *s, const char *game, int64_t user, const char *text, int64_t at);
bool store_kibitz_list(Store *s, const char *game, json_t *out);
/* The player's kibitz messages since a time, and games not over (for
 * the limits of docs/api.md); -1 on a database error. */
int64_t store_kibitz_count_since(Store *s, int64_t user, int64_t since);
int64_t store_games_unfinished(Store *s, int64_t user);
/* The player's games, "your move" first. */
bool store_games_of(Store *s, int64_t user, json_t *out);

/* The ids of the active games with the engine in a seat (their turns are
 * taken up again when the server starts). */
bool store_engine_games(Store *s, json_t *out);

/* ---- auth.c ------------------------------------------------------------- */

bool auth_init(void);
/* Argon2id (crypto_pwhash_str); false when out of memory. */
bool auth_hash_password(const char *password, char out[128]);
bool auth_check_password(const char *hash, const char *password);
/* A token of SERVER_TOKEN_BYTES random bytes as hex, and the hash under
 * which the database keeps it (a stolen database does not give sessions). */
void auth_new_token(char out[2 * SERVER_TOKEN_BYTES + 1]);
void auth_token_hash(const char *token, char out[65]);
/* A fair random choice (a colour drawn for the creator of a game). */
bool auth_coin(void);
/* The login rate limit: may `name` try again now? */
bool auth_login_allowed(const char *name, int64_t now_ms);
void auth_login_failed(const char *name, int64_t now_ms);
void auth_login_succeeded(const char *name);

/* ---- play.c ------------------------------------------------------------- */

/* The game as the library holds it, replayed from its row and actions;
 * the error is PLAY_MOVED_ON when an action was taken back between the
 * reading of the row and of its actions (read both again). */
bool play_load(Store *s, const GameRow *row, Game *g, Text *err);
#define PLAY_MOVED_ON "the game changed while it was read"
/* The state of docs/api.md's GET /api/games/{id}, for the viewer `user`
 * (0: not logged in). */
json_t *play_state(const GameRow *row, const Game *g, int64_t user);
/* Reads an action as the game reads typed text; on success its coordinate
 * and human forms. */
bool play_parse(const Game *g, const char *text, Move *m, Text *coord, Text *human, Text *err);
/* The game's result line after the rules (mate, stalemate, obligations...),
 * or false while it goes on. */
bool play_outcome(const Game *g, Text *result, Text *reason);

/* ---- cache.c ------------------------------------------------------------ */

/* Games kept replayed between requests, under their id and row version. */
typedef struct GameCache GameCache;
GameCache *cache_new(int capacity);
void cache_free(GameCache *c);
/* Takes the game of that id at that version out of the cache (false when
 * it holds none); cache_put gives one back (or a new one), owning it.
 * Both accept a NULL cache: then nothing is kept. */
bool cache_take(GameCache *c, const char *id, int64_t version, Game *out);
void cache_put(GameCache *c, const char *id, int64_t version, Game *g);

/* ---- opponent.c --------------------------------------------------------- */

/* The engine as a player: a thread that answers in every game against it.
 * opponent_start sets the store's wake_engine; NULL with the reason in err. */
struct Opponent *opponent_start(Store *s, Text *err);
void opponent_stop(struct Opponent *o, Store *s);

/* ---- events (http.c) ---------------------------------------------------- */

/* Wakes every live stream: a game has a new event. */
void events_notify(void);

/* ---- serve.c ------------------------------------------------------------ */

int64_t server_now_ms(void);

typedef struct ServerConfig {
    const char *host;
    int port;
    const char *db_path;
    const char *static_dir;
    const char *origin;     /* the Origin state-changing requests must carry */
} ServerConfig;

/* Starts the daemon; returns NULL with the reason in err. */
struct Server *server_start(const ServerConfig *cfg, Store *store, Text *err);
void server_stop(struct Server *srv);

#endif
