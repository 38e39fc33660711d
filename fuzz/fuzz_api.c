/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The HTTP API of ttchess serve (docs/api.md), below libmicrohttpd: the
 * input is a few requests, one a line, each handed to api_handle
 * (src/server/api.c, linked into the harness with the rest of
 * src/server/) as http.c would hand it over.
 *
 * A line is
 *
 *     WHO METHOD TARGET<TAB>BODY
 *
 * WHO is one byte, the session the request carries (counted modulo 5):
 * '0' none, '1' alice's, '2' bob's, '3' the last session a reply of this
 * input opened (a register or login), '4' a well-formed token that no
 * session has.  TARGET is the path with an optional query string; both
 * are %-decoded as libmicrohttpd decodes them.  The body (optional, up to
 * the 16 KiB http.c lets through) is the rest of the line.  A line that
 * starts with '#' is a comment.  In TARGET and BODY, "$0" to "$9" stand
 * for the ids of the games set up below (game ids are random, so a seed
 * could not name them otherwise), "$i" for the invitation token of the
 * waiting game $6, "$n" and "$j" for the id and the invitation token of
 * the last game an earlier line of the input created.
 *
 * The database is SQLite in memory, set up once: alice and bob are
 * registered through api_handle itself, and alice has created games
 * against bob in every family of variants, so that action texts in each
 * variant's notation reach the rules through POST .../actions:
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
 * plus one kibitz of bob's on $0.  That database is then copied aside, and
 * every input starts from the copy (sqlite3_backup): an input can create
 * users, games, actions and events without the database growing over
 * millions of inputs, and an input replays as it ran (game ids and the
 * colour drawn for "random" stay random: an input that plays in a game
 * with a drawn colour may replay otherwise, nothing else does).  The
 * failed logins that auth.c counts in memory are forgotten after each
 * input too.  Wrapping each input in one transaction rolled back would
 * not do: the handlers open their own (BEGIN IMMEDIATE), which would then
 * fail.
 *
 * After each request: the status is 200..599; the reply has exactly one
 * body, JSON or text (none only for 204); a JSON body is an object, and
 * an error (4xx, 5xx) is JSON with a string "error"; no reply is a 500 or
 * 503 (nothing runs out of memory here, and the database is in memory and
 * ours alone, so either is a bug: a game stored that does not replay, a
 * transaction left open); the handler left no transaction open and the
 * store's lock free; a Set-Cookie is the session cookie; and no reply
 * carries a password hash, alice's or bob's session token, or the
 * invitation of $6, unless the input itself sent it (say in a kibitz:
 * libFuzzer soon learns these strings from the comparisons that look for
 * them).
 * Password hashing is at libsodium's least cost in this build (auth.c,
 * TTCHESS_FUZZ): at the interactive cost a registration takes 64 MiB and
 * most of a second.
 */
#include <ctype.h>

#include "api.h"
#include "fuzz.h"

enum {
    MAX_REQUESTS = 24,  /* requests of one input (the rest is ignored) */
    GAME_COUNT = 10,
    WHO_COUNT = 5,
};

/* ---- The database set up once ------------------------------------------- */

static Store store;
static sqlite3 *snapshot;                      /* the database after set-up */
static char games[GAME_COUNT][64];             /* $0..$9                    */
static char invite[2 * SERVER_TOKEN_BYTES + 1]; /* $i                        */
static char alice_token[2 * SERVER_TOKEN_BYTES + 1], bob_token[2 * SERVER_TOKEN_BYTES + 1];
static char *alice_hash, *bob_hash;
/* What no reply may carry unless a request of the input carried it first
 * (a kibitz or an error message may then echo it). */
enum { SECRET_COUNT = 5 };
static const char *secrets[SECRET_COUNT];
static const char *const SECRET_NAMES[SECRET_COUNT] = { "alice's password hash", "bob's password hash",
                                                        "alice's session token", "bob's session token",
                                                        "the invitation of $6" };

/* A query string's arguments, for ApiRequest.query. */
typedef struct Query {
    char *names[16], *values[16];   /* a value is NULL for "?name" without '=' */
    int count;
} Query;

static const char *query_value(void *ctx, const char *name)
{
    const Query *q = ctx;
    for (int i = 0; i < q->count; i++)
        if (!strcmp(q->names[i], name)) return q->values[i];
    return NULL;
}

/* The token of a "ttchess_session=TOKEN; ..." cookie; false when it is
 * empty (the cookie of a logout). */
static bool cookie_token(const char *cookie, char out[2 * SERVER_TOKEN_BYTES + 1])
{
    static const char NAME[] = "ttchess_session=";
    FUZZ_CHECK(!strncmp(cookie, NAME, sizeof NAME - 1), "a Set-Cookie that is not the session's: '%s'", cookie);
    const char *v = cookie + sizeof NAME - 1;
    size_t n = strcspn(v, ";");
    FUZZ_CHECK(n == 0 || n == 2 * SERVER_TOKEN_BYTES, "a session token of %zu characters: '%s'", n, cookie);
    memcpy(out, v, n);
    out[n] = '\0';
    return n > 0;
}

/* Sends one request as http.c does: the session token (hex, as http.c
 * checks it) is looked up first; the caller frees the reply. */
static void send_request(const char *method, const char *path, const char *body, Query *q, const char *token,
                         ApiReply *reply)
{
    ApiRequest req = { .method = method, .path = path, .body = body, .body_len = strlen(body),
                       .query = query_value, .query_ctx = q };
    char *name = NULL;
    if (token && *token) {
        char hash[65];
        auth_token_hash(token, hash);
        req.session_token = token;
        pthread_mutex_lock(&store.lock);
        if (store_session_user(&store, hash, server_now_ms(), &req.user, &name)) req.user_name = name;
        pthread_mutex_unlock(&store.lock);
    }
    api_handle(&store, &req, reply);
    free(name);
}

/* A request of the set-up, which must get `status`; returns the reply's
 * string member `member` (malloc'd), or NULL when not asked for. */
static char *setup_request(const char *method, const char *path, const char *body, const char *token, int status,
                           const char *member, char *cookie_out)
{
    Query q = { .count = 0 };
    ApiReply r;
    send_request(method, path, body, &q, token, &r);
    char *dump = r.json ? json_dumps(r.json, JSON_COMPACT) : NULL;
    FUZZ_CHECK(r.status == status, "set-up: %s %s %s got %d, not %d: %s", method, path, body, r.status, status,
               dump ? dump : r.text ? r.text : "");
    free(dump);
    if (cookie_out) FUZZ_CHECK(r.set_cookie && cookie_token(r.set_cookie, cookie_out), "set-up: no session opened");
    char *value = NULL;
    if (member) {
        const char *v = json_string_value(json_object_get(r.json, member));
        FUZZ_CHECK(v, "set-up: %s %s has no string '%s'", method, path, member);
        value = strdup(v);
        if (!value) abort();
    }
    api_reply_free(&r);
    return value;
}

/* Creates a game as alice; its id goes to games[n]. */
static void setup_game(int n, const char *body)
{
    char *id = setup_request("POST", "/api/games", body, alice_token, 201, "id", NULL);
    FUZZ_CHECK(strlen(id) < sizeof games[n], "set-up: a game id of %zu characters", strlen(id));
    strcpy(games[n], id);
    free(id);
}

/* Plays an action in games[n] at `ply` as `token`'s player. */
static void setup_action(int n, const char *token, const char *action, int ply)
{
    char path[128], body[128];
    snprintf(path, sizeof path, "/api/games/%s/actions", games[n]);
    snprintf(body, sizeof body, "{\"action\": \"%s\", \"ply\": %d}", action, ply);
    setup_request("POST", path, body, token, 200, NULL, NULL);
}

static void setup(void)
{
    Text err = TEXT_INIT;
    FUZZ_CHECK(auth_init(), "libsodium could not start");
    FUZZ_CHECK(store_open(&store, ":memory:", &err), "an in-memory store cannot be opened: %s", text_str(&err));
    text_free(&err);

    setup_request("POST", "/api/register", "{\"name\": \"alice\", \"password\": \"alice-password\"}", NULL, 201, NULL,
                  alice_token);
    setup_request("POST", "/api/register", "{\"name\": \"bob\", \"password\": \"bob-password\"}", NULL, 201, NULL,
                  bob_token);
    static const char *const VS_BOB[] = { "chess", "gifford", "vangog", "travelers", "chessgi" };
    for (int i = 0; i < 5; i++) {
        char body[160];
        snprintf(body, sizeof body, "{\"variant\": \"%s\", \"opponent\": \"bob\", \"color\": \"white\"}", VS_BOB[i]);
        setup_game(i, body);
    }
    setup_game(5, "{\"variant\": \"chess\", \"opponent\": \"bob\", \"color\": \"black\", "
                  "\"clock\": {\"minutes\": 5, \"increment\": 2}}");
    char *url = setup_request("POST", "/api/games", "{\"variant\": \"chess\", \"color\": \"white\"}", alice_token, 201,
                              "invite_url", NULL);
    /* "/games/<id>?invite=<token>" */
    const char *q = strchr(url, '?'), *tok = strstr(url, "invite=");
    FUZZ_CHECK(q && tok && (size_t)(q - url) > 7 && (size_t)(q - url - 7) < sizeof games[6] &&
                   strlen(tok + 7) < sizeof invite,
               "set-up: an invitation link '%s'", url);
    memcpy(games[6], url + 7, (size_t)(q - url - 7));
    games[6][q - url - 7] = '\0';
    strcpy(invite, tok + 7);
    free(url);
    setup_game(7, "{\"variant\": \"chess\", \"opponent\": \"bob\", \"color\": \"white\", \"days_per_move\": 30}");
    setup_action(7, alice_token, "e4", 0);
    setup_action(7, bob_token, "e5", 1);
    setup_action(7, alice_token, "resign", 2);
    setup_game(8, "{\"variant\": \"chess\", \"level\": 1, \"color\": \"white\"}");
    setup_game(9, "{\"variant\": \"chess\", \"opponent\": \"bob\", \"color\": \"white\", "
                  "\"fen\": \"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\"}");
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/kibitz", games[0]);
    setup_request("POST", path, "{\"text\": \"good luck, both\"}", bob_token, 201, NULL, NULL);

    int64_t id;
    FUZZ_CHECK(store_user_hash(&store, "alice", &id, &alice_hash) && store_user_hash(&store, "bob", &id, &bob_hash),
               "set-up: the password hashes cannot be read");
    secrets[0] = alice_hash;
    secrets[1] = bob_hash;
    secrets[2] = alice_token;
    secrets[3] = bob_token;
    secrets[4] = invite;

    FUZZ_CHECK(sqlite3_open(":memory:", &snapshot) == SQLITE_OK, "a second in-memory database cannot be opened");
    sqlite3_backup *b = sqlite3_backup_init(snapshot, "main", store.db, "main");
    FUZZ_CHECK(b && sqlite3_backup_step(b, -1) == SQLITE_DONE && sqlite3_backup_finish(b) == SQLITE_OK,
               "the set-up database cannot be copied: %s", sqlite3_errmsg(snapshot));
}

/* Puts the database back as the set-up left it. */
static void restore(void)
{
    sqlite3_backup *b = sqlite3_backup_init(store.db, "main", snapshot, "main");
    FUZZ_CHECK(b && sqlite3_backup_step(b, -1) == SQLITE_DONE && sqlite3_backup_finish(b) == SQLITE_OK,
               "the set-up database cannot be restored: %s", sqlite3_errmsg(store.db));
}

/* ---- Reading the input -------------------------------------------------- */

/* What the input has done so far. */
typedef struct Session {
    char last_game[64], last_invite[2 * SERVER_TOKEN_BYTES + 1];
    char last_token[2 * SERVER_TOKEN_BYTES + 1];
    bool sent[SECRET_COUNT];   /* did a request carry secrets[i]?       */
    char *login_names[MAX_REQUESTS];   /* the names of its logins (malloc'd) */
    int logins;
} Session;

static void append(Text *t, const char *s) { text_addf(t, "%s", s); }

/* `src` (n bytes, no NUL in it) with the $ names replaced. */
static void substitute(const char *src, size_t n, const Session *ss, Text *out)
{
    for (size_t i = 0; i < n; i++) {
        char c = i + 1 < n ? src[i + 1] : '\0';
        if (src[i] != '$' || !c) {
            text_addf(out, "%c", src[i]);
        } else if (c >= '0' && c <= '9') {
            append(out, games[c - '0']);
            i++;
        } else if (c == 'i') {
            append(out, invite);
            i++;
        } else if (c == 'n') {
            append(out, ss->last_game);
            i++;
        } else if (c == 'j') {
            append(out, ss->last_invite);
            i++;
        } else {
            text_addf(out, "%c", src[i]);
        }
    }
}

static int hex_digit(char c)
{
    return isdigit((unsigned char)c) ? c - '0' : isxdigit((unsigned char)c) ? tolower((unsigned char)c) - 'a' + 10 : -1;
}

/* %-decodes s in place, '+' as a space when `plus` (as libmicrohttpd
 * decodes the path and the query's arguments).  A %00 ends the string, as
 * it would end the C string libmicrohttpd hands over. */
static void decode(char *s, bool plus)
{
    char *w = s;
    for (char *r = s; *r; r++) {
        int hi, lo;
        if (*r == '%' && (hi = hex_digit(r[1])) >= 0 && (lo = hex_digit(r[2])) >= 0) {
            *w++ = (char)(hi * 16 + lo);
            r += 2;
        } else {
            *w++ = plus && *r == '+' ? ' ' : *r;
        }
    }
    *w = '\0';
}

/* Splits the query string (in place) into q. */
static void parse_query(char *s, Query *q)
{
    for (char *arg = strtok(s, "&"); arg && q->count < 16; arg = strtok(NULL, "&")) {
        char *eq = strchr(arg, '=');
        if (eq) *eq = '\0';
        decode(arg, true);
        if (eq) decode(eq + 1, true);
        q->names[q->count] = arg;
        q->values[q->count++] = eq ? eq + 1 : NULL;
    }
}

/* ---- The checks ------------------------------------------------------------ */

static bool contains(const char *hay, const char *needle) { return hay && needle && *needle && strstr(hay, needle); }

static void check_reply(const char *method, const char *target, const ApiReply *r, const Session *ss)
{
    FUZZ_CHECK(r->status >= 200 && r->status <= 599, "%s %s: status %d", method, target, r->status);
    if (r->status != 204)
        FUZZ_CHECK(!r->json != !r->text, "%s %s: %s", method, target,
                   r->json ? "both a JSON and a text body" : "no body");
    FUZZ_CHECK(!r->text || (r->content_type && *r->content_type), "%s %s: a text body without a type", method, target);
    FUZZ_CHECK(!r->json || json_is_object(r->json), "%s %s: the JSON body is not an object", method, target);
    char *dump = r->json ? json_dumps(r->json, JSON_COMPACT) : NULL;
    FUZZ_CHECK(!r->json || dump, "%s %s: the JSON body cannot be written (http.c would drop the connection)", method,
               target);
    const char *body = dump ? dump : r->text;
    if (r->status >= 400)
        FUZZ_CHECK(json_is_string(json_object_get(r->json, "error")), "%s %s: the error %d has no string \"error\": %s",
                   method, target, r->status, body ? body : "(none)");
    FUZZ_CHECK(r->status != 500 && r->status != 503, "%s %s: the server's own failure %d: %s", method, target,
               r->status, body ? body : "(none)");
    FUZZ_CHECK(sqlite3_get_autocommit(store.db), "%s %s: a transaction was left open (status %d)", method, target,
               r->status);
    FUZZ_CHECK(pthread_mutex_trylock(&store.lock) == 0, "%s %s: the store's lock was left held", method, target);
    pthread_mutex_unlock(&store.lock);
    if (r->set_cookie) {
        char token[2 * SERVER_TOKEN_BYTES + 1];
        cookie_token(r->set_cookie, token);
    }
    for (int i = 0; i < SECRET_COUNT; i++)
        FUZZ_CHECK(ss->sent[i] || !contains(body, secrets[i]), "%s %s: a reply carries %s: %s", method, target,
                   SECRET_NAMES[i], body);
    free(dump);
}

/* Notes what a reply opened: a session, a game and its invitation. */
static void note_reply(const ApiReply *r, Session *ss)
{
    char token[2 * SERVER_TOKEN_BYTES + 1];
    if (r->set_cookie && cookie_token(r->set_cookie, token)) strcpy(ss->last_token, token);
    const char *id = json_string_value(json_object_get(r->json, "id"));
    const char *url = json_string_value(json_object_get(r->json, "invite_url"));
    if (r->status == 201 && id && strlen(id) < sizeof ss->last_game) {
        strcpy(ss->last_game, id);
        const char *tok = url ? strstr(url, "invite=") : NULL;
        snprintf(ss->last_invite, sizeof ss->last_invite, "%s", tok ? tok + 7 : "");
    }
}

/* Keeps the name a login tries, so that its failures can be forgotten
 * after the input (see LLVMFuzzerTestOneInput). */
static void note_login(const char *path, const char *body, Session *ss)
{
    if (strcmp(path, "/api/login") || ss->logins == MAX_REQUESTS) return;
    json_t *o = json_loads(body, 0, NULL);
    const char *name = json_string_value(json_object_get(o, "name"));
    if (name && (ss->login_names[ss->logins] = strdup(name))) ss->logins++;
    json_decref(o);
}

/* ---- One input ------------------------------------------------------------- */

/* Runs one line (n bytes, without its '\n'); false when it is no request. */
static bool run_line(const char *line, size_t n, Session *ss)
{
    if (n < 2 || line[0] == '#') return false;
    const char *who_token[WHO_COUNT] = { NULL, alice_token, bob_token, ss->last_token,
                                         "0123456789abcdef0123456789abcdef" };
    const char *token = who_token[(uint8_t)(line[0] - '0') % WHO_COUNT];
    const char *p = line + 1, *end = line + n;
    while (p < end && *p == ' ') p++;
    const char *method = p;
    while (p < end && *p != ' ' && *p != '\t') p++;
    size_t method_len = (size_t)(p - method);
    while (p < end && *p == ' ') p++;
    const char *target = p;
    while (p < end && *p != '\t') p++;
    size_t target_len = (size_t)(p - target);
    const char *body = p < end ? p + 1 : end;
    if (method_len == 0 || method_len > 16) return false;

    Text m = TEXT_INIT, t = TEXT_INIT, b = TEXT_INIT;
    text_addf(&m, "%.*s", (int)method_len, method);
    substitute(target, target_len, ss, &t);
    substitute(body, (size_t)(end - body), ss, &b);
    char *path = fuzz_string((const uint8_t *)fuzz_str(&t), strlen(fuzz_str(&t)));
    const char *body_text = fuzz_str(&b);
    for (int i = 0; i < SECRET_COUNT; i++)
        if (contains(path, secrets[i]) || contains(body_text, secrets[i])) ss->sent[i] = true;
    /* http.c answers a larger body with 413 before the API sees it. */
    if (strlen(body_text) <= SERVER_MAX_BODY) {
        Query q = { .count = 0 };
        char *qs = strchr(path, '?');
        if (qs) {
            *qs++ = '\0';
            parse_query(qs, &q);
        }
        decode(path, false);
        /* http.c hands HEAD to the API as GET. */
        const char *meth = !strcmp(fuzz_str(&m), "HEAD") ? "GET" : fuzz_str(&m);
        note_login(path, body_text, ss);
        ApiReply r;
        send_request(meth, path, body_text, &q, token, &r);
        const char *error = json_string_value(json_object_get(r.json, "error"));
        FUZZ_SAY("%s %s -> %d %s\n", meth, path, r.status, error ? error : r.text ? "(text)" : "");
        check_reply(meth, path, &r, ss);
        note_reply(&r, ss);
        api_reply_free(&r);
    }
    free(path);
    text_free(&m);
    text_free(&t);
    text_free(&b);
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool ready;
    if (!ready) {
        setup();
        ready = true;
    }
    restore();
    Session ss = { .last_game = "", .last_invite = "", .last_token = "", .sent = { false } };
    /* An input with a NUL in it ends there, as the other harnesses read
     * text (a C string cannot carry one into a request anyway). */
    char *text = fuzz_string(data, size);
    int requests = 0;
    for (char *line = text; *line && requests < MAX_REQUESTS;) {
        size_t n = strcspn(line, "\n");
        if (n && line[n - 1] == '\r') n--;   /* seeds written on another system */
        requests += run_line(line, n, &ss);
        line += strcspn(line, "\n");
        if (*line) line++;
    }
    /* auth.c counts failed logins per name in memory for a minute: the
     * database is put back for the next input, and so is the count, or
     * else after a few inputs every login of alice's and bob's would be
     * refused (429), and an input would not replay as it ran. */
    for (int i = 0; i < ss.logins; i++) {
        auth_login_succeeded(ss.login_names[i]);
        free(ss.login_names[i]);
    }
    free(text);
    return 0;
}
