/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * What the server's harnesses share (fuzz_api, fuzz_body, fuzz_query,
 * fuzz_action): a database set up once through api_handle itself, put
 * back before each input; requests handed over as http.c hands them
 * (session resolved, query arguments as libmicrohttpd splits and decodes
 * them); and the checks every reply must pass.
 *
 * Only fuzz/api_fixture.c touches the Store and SQLite (the backup, the
 * transaction and lock checks, sessions, users, events): the harnesses go
 * through the functions below, so that a change of the Store changes one
 * file here.
 *
 * The set-up: alice and bob are registered, and alice has created
 *
 *     $0 chess          $1 gifford       $2 vangog        $3 travelers
 *     $4 chessgi        (alice White, bob Black, 3 days a move, ply 0)
 *     $5 chess, a live clock of 5+2, bob White
 *     $6 chess, waiting: anyone with the invitation $i may join
 *     $7 chess, over: 1. e4 e5, then alice resigned
 *     $8 chess against the engine (level 1; no engine runs here, so it
 *        never answers)
 *     $9 chess from a FEN where White mates at once (Qxf7#)
 *
 * plus one kibitz of bob's on $0.  With `starts`, more games follow
 * ($10 on), alice White and bob Black: for every variant a few starts,
 * each created from a FEN and options and/or played into through POST
 * .../actions (each game's first samples, api_fixture.c): pending arrivals, kings that
 * went back, several timelines, van Gog obligations, Time Traveler's
 * Chess travellers, Chessgi pockets.
 */
#ifndef TTCHESS_FUZZ_API_FIXTURE_H
#define TTCHESS_FUZZ_API_FIXTURE_H

#include "api.h"
#include "fuzz.h"

enum {
    FIXTURE_BASE_GAMES = 10,    /* $0..$9                                 */
    /* Room for the base games and ten starts of each game with some to
     * spare, so that a game's new sample does not break the set-up; only
     * the games made cost time. */
    FIXTURE_MAX_GAMES = 128,
    FIXTURE_SECRETS = 5,
    FIXTURE_TOKEN_CHARS = 2 * SERVER_TOKEN_BYTES,
};

/* A game of the set-up, as a GET of it after the set-up showed it. */
typedef struct FixtureGame {
    char id[64];
    const Variant *variant;
    const char *options, *fen, *moves;   /* as created and played (NULL: none) */
    const char *white, *black;  /* the players' tokens; NULL: the engine or an open seat */
    bool start;                 /* one of the starts (not $0..$9)       */
    bool active, over;          /* status "active", "over" (else "waiting") */
    int ply;
    int to_move;                /* WHITE or BLACK                       */
    char *fen_now;              /* the game's "fen"                     */
    int *node_move, *node_timeline;  /* nodes 0..ply: fullmove, timeline */
} FixtureGame;

extern FixtureGame fixture_games[FIXTURE_MAX_GAMES];
extern int fixture_game_count;
extern char fixture_invite[FIXTURE_TOKEN_CHARS + 1];   /* $i: of $6 */
extern char fixture_alice[FIXTURE_TOKEN_CHARS + 1], fixture_bob[FIXTURE_TOKEN_CHARS + 1];  /* session tokens */
/* A well-formed session token that no session has. */
extern const char FIXTURE_STRANGER[];
/* What no reply may carry unless the input sent it: alice's and bob's
 * password hashes, their session tokens, the invitation of $6. */
extern const char *fixture_secrets[FIXTURE_SECRETS];
extern const char *const FIXTURE_SECRET_NAMES[FIXTURE_SECRETS];

/* Sets the database up once (later calls do nothing): the games above,
 * and with `starts` the starts too. */
void fixture_setup(bool starts);
/* What set-up the harness wants: each harness that links this file
 * defines it, so that the fixture's LLVMFuzzerInitialize sets the
 * database up before libFuzzer times any input (the set-up takes most of
 * libFuzzer's 25 s a unit under the sanitizers; the plain replay sets up
 * at its first input).  fuzz_head needs no database. */
typedef enum FixtureNeed { FIXTURE_NONE, FIXTURE_BASE, FIXTURE_STARTS } FixtureNeed;
extern const FixtureNeed fixture_need;
/* Puts the database back as the set-up left it. */
void fixture_restore(void);
/* Forgets the failed logins of a name (auth.c counts them in memory, for
 * a minute): call it for each name an input tried to log in as. */
void fixture_forget_login(const char *name);

/* The token of the player to move in g, and of the other; NULL for the
 * engine or an open seat. */
const char *fixture_mover(const FixtureGame *g);
const char *fixture_waiter(const FixtureGame *g);
/* The starts of variant v (n of them, consecutive in fixture_games). */
FixtureGame *fixture_starts_of(const Variant *v, int *n);

/* ---- Query strings as libmicrohttpd reads them -------------------------- */

typedef struct FixtureArg {
    char *key;
    size_t key_len;             /* decoded, %00 included                 */
    char *value;                /* NULL for an argument without '='      */
} FixtureArg;

typedef struct FixtureQuery {
    char *buf;
    FixtureArg *args;
    int count, cap;
} FixtureQuery;

/* libmicrohttpd's own %-decoding (MHD_http_unescape): in place; returns
 * the decoded length (a %00 makes the C string shorter). */
size_t fixture_unescape(char *s);
/* Splits a query string (what follows the '?', NUL-terminated) as
 * libmicrohttpd 0.9.75 does (MHD_parse_arguments_): at each '&' (an empty
 * piece between two '&' is a key "" without value; nothing after a last
 * '&'), each piece at its first '=' (none: a key without value), '+' read
 * as a space and then %-decoded, key and value each. */
void fixture_query_parse(FixtureQuery *q, const char *raw);
void fixture_query_free(FixtureQuery *q);
/* MHD_lookup_connection_value: the first argument whose decoded key has
 * name's length and equals it ignoring ASCII case; its value (NULL when
 * it has none, even if a later one has). ctx is a FixtureQuery. */
const char *fixture_query_value(void *ctx, const char *name);

/* ---- Requests ------------------------------------------------------------ */

/* Hands a request to api_handle as http.c does: the session of `token`
 * looked up first (when it is hex of at most 32 characters, as http.c
 * takes a cookie; NULL or "": none).  q may be NULL (no query
 * string).  The caller frees the reply (api_reply_free). */
void fixture_request(const char *token, const char *method, const char *path, const char *body, size_t body_len,
                     FixtureQuery *q, ApiReply *r);
/* GET /api/games/ID as `token`: it must answer 200; the state (the
 * caller decrefs it). */
json_t *fixture_state(const char *token, const char *id);

/* ---- Checks ---------------------------------------------------------------- */

/* Every reply: status 200..599; one body (JSON or text, none only for
 * 204); JSON an object that can be written; an error (4xx, 5xx) JSON with
 * a string "error"; never 500 or 503; no transaction left open and the
 * store's lock free; a Set-Cookie only the session's; no secret in the
 * reply that the input did not send (`sent`: NULL when it sent none). */
void fixture_check_common(const char *method, const char *path, const ApiReply *r, const bool *sent);
/* Marks in sent[] the secrets that n bytes of a request carry (their
 * characters in order, anything between them). */
void fixture_note_sent(const char *data, size_t n, bool sent[FIXTURE_SECRETS]);
/* The reply's body as text, for messages (malloc'd; never NULL). */
char *fixture_reply_text(const ApiReply *r);
/* The token of a "ttchess_session=TOKEN; ..." cookie (checked to be the
 * session cookie); false when it is empty (a logout's). */
bool fixture_cookie_token(const char *cookie, char out[FIXTURE_TOKEN_CHARS + 1]);

/* ---- The store, read directly -------------------------------------------- */

/* Has anything been written (a row inserted, changed or deleted, even in
 * a transaction rolled back) since the database was last put back?  When
 * not, every game is as the set-up left it. */
bool fixture_written(void);

/* The name of the user whose session `token` is (malloc'd), or NULL. */
char *fixture_session_name(const char *token);
/* Is there a user of this name (as the database compares names)? */
bool fixture_user_exists(const char *name);
/* What the live stream of `game` would send after event `after`: the
 * events as store_events_after gives them (objects with "id", "type",
 * "ply", "data"), appended to out; false on a database error. */
bool fixture_events_after(const char *game, int64_t after, json_t *out);

#endif
