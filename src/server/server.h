/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * ttchess serve: the web server (docs/api.md).  A thin layer over the
 * library, one concern a file:
 *
 *   store.c   the database: accounts, sessions, API tokens, block lists,
 *             games, their actions and events, kibitz; over db.h's
 *             drivers, db_sqlite.c and db_pg.c (PostgreSQL, for several
 *             servers on one database); a game's row described once
 *             in store_rows.c
 *   auth.c    passwords (libsodium's Argon2id, a bounded number at once),
 *             random tokens, the login and registration limits
 *   play.c    a game as the library sees it: replayed from its stored
 *             actions, an action tried and stored, its state as JSON
 *   api.c     the JSON handlers (api.h), free of HTTP: the router, and
 *             the handlers by concern in api_*.c and actions.c (the
 *             actions a player may take, a table; api_internal.h)
 *   gate.c    the listening socket: connections counted per address, each
 *             request waited for until it has wholly arrived (or refused,
 *             with the security headers) before libmicrohttpd sees it;
 *             the request's head checked in gate_head.c
 *   http.c    libmicrohttpd: requests, routes, cookies and API tokens,
 *             the Origin check, security headers, static files,
 *             Server-Sent Events
 *   opponent.c the engine as a player: a pool of workers, fair by player
 *   clocks.c  the timer that ends a game when its side to move runs out
 *             of time
 *   api_tournaments.c  arenas and round-robins: their handlers, the timer
 *             that starts, pairs and ends them, a game's end counted in
 *             its tournament; their rules in tournament.c (pure
 *             functions), their SQL in store_tournaments.c
 *   mail.c    the correspondence mails: a queue in the database
 *             (store_mail.c) sent by a thread through SMTP (smtp.c,
 *             libcurl), and the reminders' scan; api_mail.c the address
 *             and the "your move" count
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

#include "game.h"
#include "text.h"

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
    SERVER_MAX_PER_ADDRESS = 32,        /* connections at once from one address (default of
                                         * --max-connections-per-address)       */
    SERVER_REQUEST_TIMEOUT_S = 10,      /* to send a request's headers and body  */
    SERVER_IDLE_TIMEOUT_S = 30,         /* a kept-alive connection with no request */
    SERVER_MAX_REQUEST_LINE = 4096,     /* bytes of a request line (then 414)     */
    SERVER_MAX_HEAD = 8192,             /* bytes of a request line and its headers (431) */
    SERVER_MAX_FIELDS = 100,            /* header fields and cookies of a request (431),
                                         * and query arguments (414)            */
    SERVER_MAX_CHUNKED = 2 * SERVER_MAX_BODY, /* bytes of a chunked body as sent,
                                         * its chunk sizes and line ends included */
    SERVER_MAX_PENDING = 4096,          /* connections still sending their request
                                         * (held by gate.c, no thread yet)      */
    SERVER_LISTEN_BACKLOG = 4096,       /* connections the kernel queues before accept */
    SERVER_LINGER_MS = 2000,            /* a refused connection's input is read and
                                         * dropped this long before the close, so that
                                         * the refusal is not lost to a reset   */
    SERVER_LINGER_BYTES = 64 * 1024,    /* ... and at most this much of it      */
    SERVER_MHD_MEMORY = 128 * 1024,     /* libmicrohttpd's memory for a connection: the
                                         * head, its fields and the reply's headers */
    SERVER_MAX_CHALLENGES = 20,         /* open challenges a player may have sent */
    SERVER_REGISTER_BURST = 5,          /* accounts one address may create ...   */
    SERVER_REGISTER_WINDOW_S = 3600,    /* ... within this many seconds          */
    SERVER_HASH_QUEUE = 8,              /* password checks waiting for a core, beyond
                                         * those running (then 503)             */
    SERVER_ENGINE_PER_PLAYER = 3,       /* engine games thinking for one player at once */
    SERVER_MAX_ENGINE_WORKERS = 64,     /* engine games thinking at once, at most
                                         * (--engine-workers; default: the cores) */
    SERVER_ENGINE_HASH_MB = 8,          /* each engine worker's transposition table */
    SERVER_ENGINE_NICE = 10,            /* engine workers' nice value: requests go first */
    SERVER_MAX_TOKENS = 20,             /* API tokens a player may hold          */
    SERVER_CLOCK_MIN_MS = 1000,         /* a live clock's least time             */
    SERVER_CLOCK_MAX_MINUTES = 180,
    SERVER_CLOCK_MAX_INCREMENT_S = 180,
    SERVER_GAMES_LISTED = 100,          /* a player's games a listing gives by default ... */
    SERVER_MAX_GAMES_LISTED = 500,      /* ... and at most (?max=)               */
    SERVER_EXPORT_PAGES = 2,            /* pages of a PGN export made at once, by all
                                         * downloads together (api_users.c)     */
    SERVER_MIN_DAYS = 1,
    SERVER_MAX_DAYS = 30,
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
    /* Telling them of ours: a commit that stored events asks for a notice,
     * sent after it by a thread on a connection of its own
     * (store_notify.c); one notice answers many asks. */
    struct DbConn *notifier;
    pthread_t notify_thread;
    bool notifying;
    bool notify_wanted;
    pthread_mutex_t notify_lock;
    pthread_cond_t notify_cond;
    struct GameCache *cache;         /* replayed games (cache.c), or NULL    */
    /* Called after an action is committed in a game with the engine in a
     * seat, so that the engine answers (opponent.c); NULL when no engine
     * plays (the tests and fuzzers of the API alone). */
    pthread_mutex_t hooks_lock;      /* guards wake_engine and wake_ctx      */
    void (*wake_engine)(void *ctx, const char *game);
    void *wake_ctx;
    /* Called after every committed action, with the game's new row
     * version and the moment its side to move runs out of time (0: no
     * clock runs), so that the clocks' timer ends the game then
     * (clocks.c); NULL when no timer runs.  Guarded by hooks_lock too. */
    void (*wake_clock)(void *ctx, const char *game, int64_t version, int64_t deadline);
    void *clock_ctx;
} Store;

/* A game's row (strings malloc'd; store_game_free frees them). */
typedef struct GameRow {
    char *id;
    char *variant, *options, *fen;   /* options and fen may be NULL         */
    int64_t white, black;            /* user ids; 0: open seat; -1: the engine */
    int64_t creator, invited;        /* invited: 0 when anyone with the link */
    char *invite_token;              /* NULL once the seat is taken         */
    char *white_name, *black_name;   /* NULL for an open seat               */
    char *invited_name;              /* the player challenged, or NULL      */
    int64_t base_ms, inc_ms;         /* live clock; 0 when correspondence   */
    int days_per_move;               /* correspondence; 0 when live         */
    int engine_level;                /* 1..10 against the engine, else 0    */
    int64_t white_ms, black_ms;      /* time left at the last action        */
    int64_t last_action_at;          /* ms since the epoch; 0: not started  */
    char *status;                    /* "waiting" (a link's open seat), "seek"
                                      * (an open challenge to anyone), "challenge"
                                      * (a named opponent not yet accepted),
                                      * "active", "over", "declined"         */
    char *result, *reason;           /* NULL while not over                 */
    int draw_offer, takeback_offer;  /* colour + 1 of the side offering, or 0 */
    bool kibitz;                     /* may spectators comment              */
    int ply;                         /* actions stored                      */
    int to_move;                     /* 0: White, 1: Black                  */
    char *declared;                  /* an end the players declared: "0-1 white resigns" */
    int64_t version;                 /* raised by every write of the row     */
    int64_t last_event;              /* the id of the game's last event when the
                                      * row was read (0: none), so that a
                                      * client opens the stream after it     */
    int rated;                       /* 0 casual; 1 rated; 2 rated, and its end
                                      * counted in the ratings (store_ratings.c) */
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
/* store_notify.c: the thread that tells the other servers of new events
 * (started by store_listen, stopped by store_close), and the ask for a
 * notice, which store.c makes when a transaction that stored events has
 * committed (at once outside a transaction). */
bool store_notifier_start(Store *s, Text *err);
void store_notifier_stop(Store *s);
void store_notify_soon(Store *s);
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
/* The connection this thread holds (between store_enter and store_leave),
 * for the SQL of store_users.c. */
struct DbConn *store_connection_held(Store *s);

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
/* Personal API tokens (docs/api.md, "Tokens"): kept as their hash, like
 * sessions.  store_token_user finds the token's player (*user 0 and *name
 * NULL when there is none); false only when the database cannot say. */
bool store_token_add(Store *s, int64_t user, const char *token_hash, const char *label, int64_t *id);
bool store_token_user(Store *s, const char *token_hash, int64_t *user, char **name);
bool store_tokens_of(Store *s, int64_t user, json_t *out);
bool store_token_remove(Store *s, int64_t user, int64_t id, bool *found);
int64_t store_tokens_count(Store *s, int64_t user);
/* Block lists: `user` refuses challenges from `blocked`. */
bool store_block_add(Store *s, int64_t user, int64_t blocked);
bool store_block_remove(Store *s, int64_t user, int64_t blocked, bool *found);
bool store_blocks_of(Store *s, int64_t user, json_t *out);
/* Does `by` block `user`? */
bool store_blocked(Store *s, int64_t user, int64_t by, bool *blocked);
/* Inside a transaction: makes the counting of one player's limits (games,
 * challenges, kibitz, tokens) and the write that follows atomic against
 * other requests of the same player, here or on another server. */
bool store_lock_user(Store *s, int64_t user);

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
/* The same from ply after + 1 on (plies count from 1). */
bool store_actions_after(Store *s, const char *game, int after, char ***texts, int *count);
/* Adds the action for ply `ply`; *stale when that ply is taken already. */
bool store_action_add(Store *s, const char *game, int ply, const char *coord, const char *human, int64_t at,
                      bool *stale);
bool store_action_remove_last(Store *s, const char *game, int ply);
/* Events: the live stream's history (SSE ids are their numbers).
 * store_event_add sets *id (when not NULL) to the new event's number. */
bool store_event_add(Store *s, const char *game, const char *type, int ply, const char *data, int64_t *id);
bool store_events_after(Store *s, const char *game, int64_t after, json_t *out);
/* When the game was created (ms since the epoch) into *created; false on
 * a database error, true with 0 when there is no such game. */
bool store_game_created(Store *s, const char *game, int64_t *created);
bool store_kibitz_add(Store *s, const char *game, int64_t user, const char *text, int64_t at);
bool store_kibitz_list(Store *s, const char *game, json_t *out);
/* The player's kibitz messages since a time, and games not over (for
 * the limits of docs/api.md); -1 on a database error. */
int64_t store_kibitz_count_since(Store *s, int64_t user, int64_t since);
int64_t store_games_unfinished(Store *s, int64_t user);
/* Challenges the player has sent that are still open. */
int64_t store_challenges_sent(Store *s, int64_t user);
/* The open challenges naming the player, for the lobby. */
bool store_challenges_of(Store *s, int64_t user, json_t *out);
/* Open challenges to anyone (seeks, games of status "seek"): a player's
 * count, and the lobby's lists of them and of the games being played. */
int64_t store_seeks_open(Store *s, int64_t user);
bool store_lobby(Store *s, json_t *seeks, json_t *playing);
/* The player's games, "your move" first. */
bool store_games_of(Store *s, int64_t user, json_t *out);

/* The ids of the active games with the engine in a seat (their turns are
 * taken up again when the server starts). */
bool store_engine_games(Store *s, json_t *out);
/* The ids of the active games whose clock runs (live or correspondence),
 * for the clocks' timer when the server starts. */
bool store_clock_games(Store *s, json_t *out);

/* ---- store_mail.c: e-mail addresses and the mail queue (mail.c) -------- */

/* A player's address (malloc'd; NULL when none) and choices. */
typedef struct EmailRow {
    char *address;
    bool confirmed, moved, reminder;
} EmailRow;
void email_row_free(EmailRow *e);
/* A mail of the queue (strings malloc'd; mail_row_free frees them). */
typedef struct MailRow {
    int64_t id;
    char *ukey;                      /* "moved:GAME:PLY:USER": one mail a key */
    int64_t user;
    char *address, *subject, *body;
    int attempts;                    /* claims so far, this one included     */
} MailRow;
void mail_row_free(MailRow *m);
/* A new address, unconfirmed, with its confirmation token's hash. */
bool store_email_set(Store *s, int64_t user, const char *address, const char *token_hash, int64_t expires);
bool store_email_get(Store *s, int64_t user, EmailRow *out);
/* Confirms the address whose token has this hash, if it has not expired. */
bool store_email_confirm(Store *s, const char *token_hash, int64_t now, bool *done);
bool store_email_notify(Store *s, int64_t user, bool moved, bool reminder, bool *found);
/* Enqueues a mail to m->address (a confirmation); once a key. */
bool store_mail_add(Store *s, const MailRow *m, int64_t now);
/* Enqueues a mail to the player's confirmed address if they want it
 * (a reminder, else a "moved" mail); once a key. */
bool store_mail_add_if(Store *s, const MailRow *m, bool reminder, int64_t now);
/* Claims the oldest mail not sent (or claimed longer than lease_ms ago). */
bool store_mail_claim(Store *s, int64_t now, int64_t lease_ms, MailRow *out, bool *found);
/* Marks a claimed mail "sent", "queued" (try again) or "failed". */
bool store_mail_done(Store *s, int64_t id, const char *status, int64_t now);
/* Mails enqueued since `since` whose key starts so; -1 on a database error. */
int64_t store_mail_count_since(Store *s, const char *ukey_prefix, int64_t since);
/* {"game", "moved_at", "user", "deadline"} of every correspondence game whose
 * side to move has a third of its time left, or less (a day: day_ms). */
bool store_reminders_due(Store *s, int64_t now, int64_t day_ms, json_t *out);
/* The active games in which it is the player's turn; -1 on an error. */
int64_t store_your_move_count(Store *s, int64_t user);

/* ---- mail.c, smtp.c: the correspondence mails ---------------------------- */

/* Is there an SMTP server to send mail through (--smtp)? */
bool mail_enabled(void);
/* Enqueues, in the open transaction, the "moved" mail to the side to
 * move of a correspondence game after an action of `mover` (nothing when
 * the turn did not pass, or the game is live or over). */
bool mail_after_action(Store *s, const GameRow *row, int old_ply, const char *mover, const char *site);
/* Enqueues the confirmation of a new address, its link holding `token`. */
bool mail_confirmation(Store *s, int64_t user, const char *name, const char *address, const char *token,
                       const char *site);
/* Tells the sender that a mail was committed to the queue. */
void mail_wake(void);
/* Is this an e-mail address the server accepts (at most 254 bytes, one
 * '@', a dotted domain, no spaces or control characters)? */
bool mail_address_valid(const char *address);

typedef struct SmtpConfig {
    const char *url;                 /* smtp://host:port (smtps:// for TLS from the start) */
    const char *user, *password;     /* NULL: no AUTH                        */
    const char *from;
} SmtpConfig;
bool smtp_init(void);
/* Sends one message (headers and body, CRLF lines) to `to`: STARTTLS when
 * the server offers it.  False with the reason in err. */
bool smtp_send(const SmtpConfig *c, const char *to, const char *message, Text *err);

/* ---- auth.c ------------------------------------------------------------- */

/* What became of a password hashed or checked: AUTH_BUSY when every core
 * hashes already and SERVER_HASH_QUEUE requests wait (then 503). */
typedef enum AuthStatus { AUTH_OK, AUTH_FAILED, AUTH_BUSY } AuthStatus;

/* Starts libsodium and makes the decoy hash (below); false if it cannot. */
bool auth_init(void);
/* Argon2id (crypto_pwhash_str); AUTH_FAILED when out of memory. */
AuthStatus auth_hash_password(const char *password, char out[128]);
/* AUTH_OK when the password is the hash's.  A NULL hash (no such player)
 * is checked against a decoy, at the same cost, and fails. */
AuthStatus auth_check_password(const char *hash, const char *password);
/* A token of SERVER_TOKEN_BYTES random bytes as hex, and the hash under
 * which the database keeps it (a stolen database does not give sessions). */
void auth_new_token(char out[2 * SERVER_TOKEN_BYTES + 1]);
void auth_token_hash(const char *token, char out[65]);
/* A fair random choice (a colour drawn for the creator of a game). */
bool auth_coin(void);
/* The login limit: auth_login_begin takes one of the name's attempts
 * (false: SERVER_LOGIN_FAILURES failed or in flight within the window);
 * auth_login_end settles it with the check's result. */
bool auth_login_begin(const char *name, int64_t now_ms);
void auth_login_end(const char *name, AuthStatus result, int64_t now_ms);
/* Forgets a name's failures (the fuzzers' fixture). */
void auth_login_forget(const char *name);
/* May `address` register another account now?  Counts it if so. */
bool auth_register_allowed(const char *address, int64_t now_ms);
/* Registrations from one client address: SERVER_REGISTER_BURST an hour
 * unless the server was started with another number. */
void auth_set_register_limit(int per_hour);
int auth_register_limit(void);

/* ---- play.c ------------------------------------------------------------- */

/* The game as the library holds it, replayed from its row and actions;
 * the error is PLAY_MOVED_ON when an action was taken back between the
 * reading of the row and of its actions (read both again). */
bool play_load(Store *s, const GameRow *row, Game *g, Text *err);
#define PLAY_MOVED_ON "the game changed while it was read"
/* The game at the row's version: the cache's when it holds that version;
 * an older one of the cache's brought up to date when only actions were
 * added since; else play_load's.  Errors as play_load's. */
bool play_restore(Store *s, const GameRow *row, Game *g, Text *err);
/* The parts of a game's state listed only when asked (docs/api.md,
 * "?legal=1", "?nodes=1", "?what=1"): the legal actions, every position of
 * the record and what each played action does are most of a time-travel
 * game's state (a van Gog position has thousands of legal actions), and a
 * client with the rules computes them from the record's coordinates. */
enum { STATE_LEGAL = 1, STATE_NODES = 2, STATE_WHAT = 4 };
/* The state of docs/api.md's GET /api/games/{id}, for the viewer `user`
 * (0: not logged in), with the parts of `parts` (STATE_LEGAL, ...). */
json_t *play_state(const GameRow *row, const Game *g, int64_t user, unsigned parts);
/* The state's "clock" at the instant `now` (ms since the epoch), the side
 * `to_move`'s time running when `running`: the live times left then, or
 * the correspondence deadline.  The events of a game's actions carry it as
 * they were committed (docs/api.md, "Live events"). */
json_t *play_clock(const GameRow *row, int to_move, bool running, int64_t now);
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
/* Takes the game of that id out of the cache (it keeps one a game), with
 * the row version it was put under (false when it holds none): the
 * caller uses it at that version or brings it up to date (play_restore).
 * cache_put gives one back (or a new one), owning it.  Both accept a NULL
 * cache: then nothing is kept. */
bool cache_take_any(GameCache *c, const char *id, int64_t *version, Game *out);
void cache_put(GameCache *c, const char *id, int64_t version, Game *g);

/* ---- opponent.c --------------------------------------------------------- */

/* The engine as a player: a pool of `workers` threads (0: one a core, at
 * most SERVER_MAX_ENGINE_WORKERS) that answer in every game against it,
 * each player's games in turn (docs/api.md, "Games against the engine").
 * opponent_start sets the store's wake_engine; NULL with the reason in
 * err.  opponent_stop ends every search and joins every worker. */
struct Opponent *opponent_start(Store *s, int workers, Text *err);
void opponent_stop(struct Opponent *o, Store *s);

/* ---- clocks.c ----------------------------------------------------------- */

/* The flag: a thread that knows each active game's deadline and ends the
 * game on time at that moment, through the API as a request would
 * (docs/api.md, "Actions": time).  clocks_start sets the store's wake_clock and
 * reads every active game with a clock; NULL with the reason in err. */
struct Clocks *clocks_start(Store *s, Text *err);
void clocks_stop(struct Clocks *c, Store *s);
/* The moment the side to move runs out of time, in ms since the epoch:
 * its live clock's time left after the last action, or the last action
 * plus the days a move; 0 when no clock runs (the game is not active, or
 * no action has started the clock). */
int64_t clock_deadline(const GameRow *row);
/* Ends the game on time if its side to move has run out of time by `now`
 * (api.c, for the timer).  *version and *deadline are the game's row
 * version and deadline afterwards (deadline 0: none, the game is over or
 * gone).  False when the database could not be read or written. */
bool api_flag(Store *s, const char *game, int64_t now, int64_t *version, int64_t *deadline);

/* ---- api_tournaments.c -------------------------------------------------- */

/* The tournaments' timer: a thread that starts tournaments at their time,
 * pairs an arena's waiting players and ends it when its time is up
 * (docs/api.md, "Tournaments").  NULL with the reason in err. */
struct TournamentTimer *tournaments_start(Store *s, Text *err);
void tournaments_stop(struct TournamentTimer *t);
/* How long an arena's minute lasts, in ms (60000; shorter for the tests:
 * ttchess serve --arena-minute-ms). */
void tournaments_set_minute_ms(int ms);

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
    int max_per_address;    /* connections at once from one client address */
    bool trust_proxy;       /* the client's address is X-Forwarded-For's    */
    int engine_workers;     /* engine games thinking at once (0: the cores) */
    int registrations_per_hour; /* accounts one address may create in an hour */
    const char *smtp;       /* --smtp URL, or NULL: no mail is sent        */
    const char *smtp_user, *smtp_password_file, *mail_from;
    const char *public_url; /* the site's address in mails (else the Host) */
    int mail_lease_s;       /* a claimed mail is claimed again after this  */
    int mail_scan_s;        /* the reminders are looked for this often      */
} ServerConfig;

/* The sender of the mail queue (mail.c): a thread that claims, sends and
 * marks mails, and looks for reminders to enqueue; NULL with the reason
 * in err; NULL too without cfg->smtp, when there is nothing to start. */
struct Mailer *mail_start(Store *s, const ServerConfig *cfg, Text *err);
void mail_stop(struct Mailer *m);

/* Starts the daemon; returns NULL with the reason in err. */
struct Server *server_start(const ServerConfig *cfg, Store *store, Text *err);
void server_stop(struct Server *srv);

/* ---- gate.c ------------------------------------------------------------- */

/* The door of the server.  A thread of its own accepts every connection,
 * counts it against its client address, and waits, without a thread per
 * connection, until the whole request (head and body) has arrived; only
 * then is the socket handed to libmicrohttpd, whose thread reads it at
 * once.  Slow, oversized and malformed requests are answered here, with
 * the security headers, and libmicrohttpd never sees them. */

enum { GATE_ADDRESS_SIZE = 46 };        /* an IPv6 address as text, and its NUL */

typedef enum GateVerdict {
    GATE_INCOMPLETE,                    /* more bytes are needed                */
    GATE_COMPLETE,                      /* the whole request is there           */
    GATE_REFUSED,                       /* answer `status` with `reason`        */
} GateVerdict;

/* What gate_check_head finds in the bytes received so far. */
typedef struct GateHead {
    GateVerdict verdict;
    int status;                         /* GATE_REFUSED: 400, 413, 414, 431, 501, 505 */
    char reason[160];                   /* GATE_REFUSED: a sentence for the client */
    size_t head_len;                    /* the request line and headers with their blank
                                         * line, once complete (else 0)          */
    size_t length;                      /* GATE_COMPLETE: head and body          */
    bool expects_continue;              /* the head asks for "100 Continue" and its
                                         * body has not all come                 */
    char forwarded_for[GATE_ADDRESS_SIZE]; /* X-Forwarded-For's last address, in its
                                         * usual spelling; "" when none          */
    bool forwarded_for_invalid;         /* ... it was there but is no IP address */
} GateHead;

/* Checks the bytes of a request received so far (a pure function: no
 * I/O).  It is at least as strict as libmicrohttpd 0.9.75, so that what
 * it lets through libmicrohttpd reads without an error page of its own. */
void gate_check_head(const char *data, size_t len, GateHead *out);

/* Does a request whose Accept-Encoding is this value (NULL: none) accept a
 * gzip-compressed body: "gzip" among its codings, unless weighted q=0
 * (RFC 9110, 12.5.3)?  The server then sends a file's compressed copy. */
bool http_accepts_gzip(const char *accept_encoding);

/* The security headers every reply carries (docs/api.md, "Security and
 * limits"), as name and value. */
enum { SERVER_SECURITY_HEADER_COUNT = 4 };
extern const char *const SERVER_SECURITY_HEADERS[SERVER_SECURITY_HEADER_COUNT][2];

/* A whole reply of the gate's: the status line, the security headers,
 * "Connection: close" and {"error": message}; its length, or 0 when it
 * does not fit in `size`. */
size_t gate_format_reply(int status, const char *message, char *out, size_t size);

struct sockaddr_in;
typedef struct Gate Gate;
/* Gives a connection whose request has come to libmicrohttpd; false when
 * it was refused (the socket is closed either way). */
typedef bool (*GateHandOff)(void *ctx, int fd, const struct sockaddr_in *peer);

/* Listens on cfg's host and port; NULL with the reason in err. */
Gate *gate_open(const ServerConfig *cfg, Text *err);
/* Starts the gate's thread, which hands requests to hand_off. */
bool gate_start(Gate *g, GateHandOff hand_off, void *ctx, Text *err);
/* Stops accepting and closes the connections the gate still holds. */
void gate_stop(Gate *g);
/* Frees the gate, once libmicrohttpd has closed every connection. */
void gate_free(Gate *g);
/* libmicrohttpd's news of a connection handed off (NOTIFY_CONNECTION):
 * gate_started returns the gate's record of the connection on fd, to
 * keep as its socket context; gate_closed ends its count. */
void *gate_started(Gate *g, int fd);
void gate_closed(Gate *g, void *connection);
/* The client's address of a connection record, as counted ("127.0.0.2";
 * X-Forwarded-For's with --trust-proxy). */
const char *gate_address(const void *connection);

#endif
