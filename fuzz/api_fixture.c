/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The set-up database, requests and common checks of the server's
 * harnesses (see api_fixture.h).  This is the one file of fuzz/ that
 * touches the Store and SQLite.
 *
 * The database is SQLite in memory, set up once through api_handle
 * itself, then copied aside; every input starts from the copy
 * (sqlite3_backup): an input can create users, games, actions and events
 * without the database growing over millions of inputs, and an input
 * replays as it ran (game ids, tokens and the colour drawn for "random"
 * stay random: an input that plays in a game with a drawn colour may
 * replay otherwise, nothing else does).  Wrapping each input in one
 * transaction rolled back would not do: the handlers open their own
 * (BEGIN IMMEDIATE), which would then fail.
 *
 * Password hashing is at libsodium's least cost in these builds (auth.c,
 * TTCHESS_FUZZ): at the interactive cost a registration takes 64 MiB and
 * most of a second.
 */
#include "api_fixture.h"

#include <ctype.h>
#include <microhttpd.h>
#include <sqlite3.h>

#include "db.h"

FixtureGame fixture_games[FIXTURE_MAX_GAMES];
int fixture_game_count;
char fixture_invite[FIXTURE_TOKEN_CHARS + 1];
char fixture_alice[FIXTURE_TOKEN_CHARS + 1], fixture_bob[FIXTURE_TOKEN_CHARS + 1];
const char FIXTURE_STRANGER[] = "0123456789abcdef0123456789abcdef";
const char *fixture_secrets[FIXTURE_SECRETS];
const char *const FIXTURE_SECRET_NAMES[FIXTURE_SECRETS] = { "alice's password hash", "bob's password hash",
                                                            "alice's session token", "bob's session token",
                                                            "the invitation of $6" };

static Store store;

/* The memory database's one connection (the store's pool has one for a
 * memory database: each connection would otherwise have its own). */
static sqlite3 *store_db(void) { return db_sqlite_handle(store_connection(&store, 0)); }
static sqlite3 *snapshot;   /* the database after set-up */
static sqlite3_int64 changes_restored;   /* sqlite3_total_changes once put back */

/* ---- The starts ------------------------------------------------------------ */

/* The starts are the games' own sample positions (Variant.samples: the
 * bench's, then positions worth a harness's time), every game's in the
 * order of the registry, reached through the API: of each game its first
 * FIXTURE_STARTS_PER_GAME, as many as fuzz_action's start digit picks.
 * The library's harnesses take every sample; here each start is a game
 * created and played into through api_handle at set-up, which a harness
 * pays for before its first input. */
enum { FIXTURE_STARTS_PER_GAME = 10 };

/* ---- Requests ------------------------------------------------------------ */

void fixture_request(const char *token, const char *method, const char *path, const char *body, size_t body_len,
                     FixtureQuery *q, ApiReply *r)
{
    ApiRequest req = { .method = method, .path = path, .body = body, .body_len = body_len,
                       .query = fixture_query_value, .query_ctx = q };
    FixtureQuery none = { 0 };
    if (!q) req.query_ctx = &none;
    char *name = NULL;
    /* http.c takes a cookie's token only when it is hex, and short. */
    if (token && *token && strlen(token) <= FIXTURE_TOKEN_CHARS &&
        strspn(token, "0123456789abcdef") == strlen(token)) {
        char hash[65];
        auth_token_hash(token, hash);
        req.session_token = token;
        if (store_session_user(&store, hash, server_now_ms(), &req.user, &name) && name) req.user_name = name;
    }
    api_handle(&store, &req, r);
    free(name);
}

char *fixture_reply_text(const ApiReply *r)
{
    char *s = r->json ? json_dumps(r->json, JSON_COMPACT) : r->text ? strdup(r->text) : strdup("(no body)");
    if (!s) s = strdup("(a body that cannot be written)");
    if (!s) abort();
    return s;
}

/* A request of the set-up, which must get `status`; the reply's JSON
 * (the caller decrefs it). */
static json_t *setup_request(const char *token, const char *method, const char *path, const char *body, int status)
{
    ApiReply r;
    fixture_request(token, method, path, body, strlen(body), NULL, &r);
    char *text = fixture_reply_text(&r);
    FUZZ_CHECK(r.status == status && r.json, "set-up: %s %s %s got %d, not %d: %s", method, path, body, r.status,
               status, text);
    free(text);
    json_t *j = json_incref(r.json);
    api_reply_free(&r);
    return j;
}

json_t *fixture_state(const char *token, const char *id)
{
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s", id);
    ApiReply r;
    /* The whole state: the fixture reads the record's positions, which
     * the server lists only when asked (docs/api.md). */
    FixtureQuery q = { 0 };
    fixture_query_parse(&q, "nodes=1&legal=1&what=1");
    fixture_request(token, "GET", path, "", 0, &q, &r);
    fixture_query_free(&q);
    char *text = fixture_reply_text(&r);
    FUZZ_CHECK(r.status == 200 && json_is_object(r.json), "GET %s got %d: %s", path, r.status, text);
    free(text);
    json_t *j = json_incref(r.json);
    api_reply_free(&r);
    return j;
}

/* ---- The set-up ------------------------------------------------------------- */

/* Registers a player; its session token goes to `token`. */
static void setup_register(const char *name, const char *password, char token[FIXTURE_TOKEN_CHARS + 1])
{
    char body[160];
    snprintf(body, sizeof body, "{\"name\": \"%s\", \"password\": \"%s\"}", name, password);
    ApiReply r;
    fixture_request(NULL, "POST", "/api/register", body, strlen(body), NULL, &r);
    FUZZ_CHECK(r.status == 201 && r.set_cookie && fixture_cookie_token(r.set_cookie, token),
               "set-up: %s cannot register (%d)", name, r.status);
    api_reply_free(&r);
}

/* Creates a game as alice from a JSON body; it becomes the next game. */
static FixtureGame *setup_game(const char *body)
{
    FUZZ_CHECK(fixture_game_count < FIXTURE_MAX_GAMES, "set-up: too many games");
    FixtureGame *g = &fixture_games[fixture_game_count++];
    json_t *j = setup_request(fixture_alice, "POST", "/api/games", body, 201);
    const char *id = json_string_value(json_object_get(j, "id"));
    const char *url = json_string_value(json_object_get(j, "invite_url"));
    FUZZ_CHECK(id && strlen(id) < sizeof g->id, "set-up: a game id '%s'", id ? id : "(none)");
    strcpy(g->id, id);
    /* A game naming bob is a challenge until he accepts it. */
    if (json_is_true(json_object_get(j, "challenge"))) {
        char path[96];
        snprintf(path, sizeof path, "/api/games/%s/accept", id);
        json_decref(setup_request(fixture_bob, "POST", path, "{}", 200));
    }
    if (url) {
        const char *tok = strstr(url, "invite=");
        FUZZ_CHECK(tok && strlen(tok + 7) == FIXTURE_TOKEN_CHARS, "set-up: an invitation link '%s'", url);
        strcpy(fixture_invite, tok + 7);
    }
    json_decref(j);
    return g;
}

static const char *token_of(json_t *player)
{
    const char *name = json_string_value(json_object_get(player, "name"));
    return !name || json_is_true(json_object_get(player, "engine")) ? NULL
           : !strcmp(name, "alice")                               ? fixture_alice
           : !strcmp(name, "bob")                                 ? fixture_bob
                                                                  : NULL;
}

/* Fills g's fields from a GET of it. */
static void setup_record(FixtureGame *g)
{
    json_t *st = fixture_state(fixture_alice, g->id);
    g->variant = variant_find(json_string_value(json_object_get(st, "variant")));
    FUZZ_CHECK(g->variant, "set-up: game %s has no variant", g->id);
    g->white = token_of(json_object_get(st, "white"));
    g->black = token_of(json_object_get(st, "black"));
    g->active = !strcmp(json_string_value(json_object_get(st, "status")), "active");
    g->over = !strcmp(json_string_value(json_object_get(st, "status")), "over");
    g->ply = (int)json_integer_value(json_object_get(st, "ply"));
    g->to_move = strcmp(json_string_value(json_object_get(st, "to_move")), "white") ? BLACK : WHITE;
    free(g->fen_now);
    g->fen_now = strdup(json_string_value(json_object_get(st, "fen")));
    json_t *nodes = json_object_get(st, "nodes");
    FUZZ_CHECK(g->fen_now && json_array_size(nodes) == (size_t)g->ply + 1, "set-up: game %s has %zu nodes at ply %d",
               g->id, json_array_size(nodes), g->ply);
    free(g->node_move);
    free(g->node_timeline);
    g->node_move = calloc((size_t)g->ply + 1, sizeof(int));
    g->node_timeline = calloc((size_t)g->ply + 1, sizeof(int));
    if (!g->node_move || !g->node_timeline) abort();
    for (int i = 0; i <= g->ply; i++) {
        json_t *n = json_array_get(nodes, (size_t)i);
        g->node_move[i] = (int)json_integer_value(json_object_get(n, "move"));
        g->node_timeline[i] = (int)json_integer_value(json_object_get(n, "timeline"));
    }
    json_decref(st);
}

const char *fixture_mover(const FixtureGame *g) { return g->to_move == WHITE ? g->white : g->black; }
const char *fixture_waiter(const FixtureGame *g) { return g->to_move == WHITE ? g->black : g->white; }

/* Posts the space-separated actions in g, each by the side to move (as
 * the reply to the one before says). */
static void setup_play(FixtureGame *g, const char *moves)
{
    if (!moves) return;
    char *copy = strdup(moves);
    if (!copy) abort();
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/actions", g->id);
    setup_record(g);
    for (char *save, *tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        json_t *body = json_pack("{s:s, s:i}", "action", tok, "ply", g->ply);
        char *text = json_dumps(body, JSON_COMPACT);
        json_t *st = setup_request(fixture_mover(g), "POST", path, text, 200);
        g->ply = (int)json_integer_value(json_object_get(st, "ply"));
        g->to_move = strcmp(json_string_value(json_object_get(st, "to_move")), "white") ? BLACK : WHITE;
        json_decref(st);
        free(text);
        json_decref(body);
    }
    free(copy);
}

static void setup_base(void)
{
    setup_register("alice", "alice-password", fixture_alice);
    setup_register("bob", "bob-password", fixture_bob);
    static const char *const VS_BOB[] = { "chess", "gifford", "vangog", "travelers", "chessgi" };
    for (int i = 0; i < 5; i++) {
        char body[160];
        snprintf(body, sizeof body, "{\"variant\": \"%s\", \"opponent\": \"bob\", \"color\": \"white\"}", VS_BOB[i]);
        setup_game(body);
    }
    setup_game("{\"variant\": \"chess\", \"opponent\": \"bob\", \"color\": \"black\", "
               "\"clock\": {\"minutes\": 5, \"increment\": 2}}");
    setup_game("{\"variant\": \"chess\", \"color\": \"white\"}");
    FUZZ_CHECK(fixture_invite[0], "set-up: $6 has no invitation");
    FixtureGame *over = setup_game("{\"variant\": \"chess\", \"opponent\": \"bob\", \"color\": \"white\", "
                                   "\"days_per_move\": 30}");
    setup_play(over, "e4 e5 resign");
    setup_game("{\"variant\": \"chess\", \"level\": 1, \"color\": \"white\"}");
    setup_game("{\"variant\": \"chess\", \"opponent\": \"bob\", \"color\": \"white\", "
               "\"fen\": \"r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4\"}");
    char path[128];
    snprintf(path, sizeof path, "/api/games/%s/kibitz", fixture_games[0].id);
    json_decref(setup_request(fixture_bob, "POST", path, "{\"text\": \"good luck, both\"}", 201));
}

static void setup_start(const Variant *v, const SamplePosition *s)
{
    json_t *body = json_pack("{s:s, s:s, s:s, s:s?, s:s?}", "variant", v->name, "opponent", "bob", "color", "white",
                             "fen", s->fen, "options", s->options);
    char *text = json_dumps(body, JSON_COMPACT);
    FixtureGame *g = setup_game(text);
    free(text);
    json_decref(body);
    g->start = true;
    g->fen = s->fen;
    g->moves = s->moves;
    g->options = s->options;
    setup_play(g, s->moves);
}

static void setup_starts(void)
{
    for (int v = 0; VARIANTS[v]; v++)
        for (int i = 0; i < VARIANTS[v]->sample_count && i < FIXTURE_STARTS_PER_GAME; i++)
            setup_start(VARIANTS[v], &VARIANTS[v]->samples[i]);
}

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (fixture_need != FIXTURE_NONE) fixture_setup(fixture_need == FIXTURE_STARTS);
    return 0;
}

void fixture_setup(bool starts)
{
    static bool ready;
    if (ready) return;
    ready = true;
    Text err = TEXT_INIT;
    FUZZ_CHECK(auth_init(), "libsodium could not start");
    FUZZ_CHECK(store_open(&store, ":memory:", &err), "an in-memory store cannot be opened: %s", text_str(&err));
    text_free(&err);
    setup_base();
    if (starts) setup_starts();
    for (int i = 0; i < fixture_game_count; i++) setup_record(&fixture_games[i]);

    static char *alice_hash, *bob_hash;
    int64_t id;
    FUZZ_CHECK(store_user_hash(&store, "alice", &id, &alice_hash) && store_user_hash(&store, "bob", &id, &bob_hash) &&
                   alice_hash && bob_hash,
               "set-up: the password hashes cannot be read");
    fixture_secrets[0] = alice_hash;
    fixture_secrets[1] = bob_hash;
    fixture_secrets[2] = fixture_alice;
    fixture_secrets[3] = fixture_bob;
    fixture_secrets[4] = fixture_invite;

    FUZZ_CHECK(sqlite3_open(":memory:", &snapshot) == SQLITE_OK, "a second in-memory database cannot be opened");
    sqlite3_backup *b = sqlite3_backup_init(snapshot, "main", store_db(), "main");
    FUZZ_CHECK(b && sqlite3_backup_step(b, -1) == SQLITE_DONE && sqlite3_backup_finish(b) == SQLITE_OK,
               "the set-up database cannot be copied: %s", sqlite3_errmsg(snapshot));
    changes_restored = sqlite3_total_changes64(store_db());
}

/* An input that wrote nothing (no row inserted, changed or deleted since
 * the last restore: the backup itself counts none) left the database as
 * the copy is, and the copy is not made again: the read-only requests of
 * fuzz_query run at twice the speed. */
bool fixture_written(void) { return sqlite3_total_changes64(store_db()) != changes_restored; }

void fixture_restore(void)
{
    if (!fixture_written()) return;
    sqlite3_backup *b = sqlite3_backup_init(store_db(), "main", snapshot, "main");
    FUZZ_CHECK(b && sqlite3_backup_step(b, -1) == SQLITE_DONE && sqlite3_backup_finish(b) == SQLITE_OK,
               "the set-up database cannot be restored: %s", sqlite3_errmsg(store_db()));
    changes_restored = sqlite3_total_changes64(store_db());
}

/* auth.c counts failed logins per name in memory for a minute: the
 * database is put back for the next input, and so must the count be, or
 * else after a few inputs every login of alice's and bob's would be
 * refused (429), and an input would not replay as it ran. */
void fixture_forget_login(const char *name) { auth_login_forget(name); }

FixtureGame *fixture_starts_of(const Variant *v, int *n)
{
    FixtureGame *first = NULL;
    *n = 0;
    for (int i = FIXTURE_BASE_GAMES; i < fixture_game_count; i++)
        if (fixture_games[i].start && fixture_games[i].variant == v) {
            if (!first) first = &fixture_games[i];
            (*n)++;
        }
    return first;
}

/* ---- Query strings ---------------------------------------------------------- */

size_t fixture_unescape(char *s) { return MHD_http_unescape(s); }

static void add_arg(FixtureQuery *q, char *key, char *value)
{
    for (char *p = strchr(key, '+'); p; p = strchr(p + 1, '+')) *p = ' ';
    size_t key_len = fixture_unescape(key);
    if (value) {
        for (char *p = strchr(value, '+'); p; p = strchr(p + 1, '+')) *p = ' ';
        fixture_unescape(value);
    }
    if (q->count == q->cap) {
        q->cap = q->cap ? 2 * q->cap : 8;
        q->args = realloc(q->args, (size_t)q->cap * sizeof *q->args);
        if (!q->args) abort();
    }
    q->args[q->count++] = (FixtureArg){ key, key_len, value };
}

void fixture_query_parse(FixtureQuery *q, const char *raw)
{
    memset(q, 0, sizeof *q);
    q->buf = strdup(raw);
    if (!q->buf) abort();
    char *args = q->buf;
    while (*args) {
        char *equals = strchr(args, '='), *amper = strchr(args, '&');
        if (!amper) {
            if (equals) *equals++ = '\0';
            add_arg(q, args, equals);
            break;
        }
        *amper++ = '\0';
        if (!equals || equals >= amper) {
            add_arg(q, args, NULL);
        } else {
            *equals++ = '\0';
            add_arg(q, args, equals);
        }
        args = amper;
    }
}

void fixture_query_free(FixtureQuery *q)
{
    free(q->buf);
    free(q->args);
    memset(q, 0, sizeof *q);
}

const char *fixture_query_value(void *ctx, const char *name)
{
    const FixtureQuery *q = ctx;
    size_t n = strlen(name);
    for (int i = 0; i < q->count; i++) {
        if (q->args[i].key_len != n) continue;
        size_t k = 0;
        while (k < n && tolower((unsigned char)q->args[i].key[k]) == tolower((unsigned char)name[k])) k++;
        if (k == n) return q->args[i].value;
    }
    return NULL;
}

/* ---- Checks ---------------------------------------------------------------- */

bool fixture_cookie_token(const char *cookie, char out[FIXTURE_TOKEN_CHARS + 1])
{
    static const char NAME[] = "ttchess_session=";
    FUZZ_CHECK(!strncmp(cookie, NAME, sizeof NAME - 1), "a Set-Cookie that is not the session's: '%s'", cookie);
    const char *v = cookie + sizeof NAME - 1;
    size_t n = strcspn(v, ";");
    FUZZ_CHECK(n == 0 || n == FIXTURE_TOKEN_CHARS, "a session token of %zu characters: '%s'", n, cookie);
    memcpy(out, v, n);
    out[n] = '\0';
    return n > 0;
}

static bool contains_n(const char *hay, size_t n, const char *needle)
{
    size_t k = needle ? strlen(needle) : 0;
    if (!hay || !k || n < k) return false;
    for (size_t i = 0; i + k <= n; i++)
        if (hay[i] == needle[0] && !memcmp(hay + i, needle, k)) return true;
    return false;
}

/* Are needle's characters in hay (n bytes), in order, with anything
 * between them? */
static bool holds_in_order(const char *hay, size_t n, const char *needle)
{
    size_t k = 0, len = needle ? strlen(needle) : 0;
    for (size_t i = 0; hay && i < n && k < len; i++)
        if (hay[i] == needle[k]) k++;
    return len && k == len;
}

/* A secret counts as sent when the request's bytes hold its characters
 * in order, not only side by side: a refusal may quote the text as a
 * reader normalised it (the action "e4!\nf19..." comes back as
 * "e4f19...", annotations and line ends left out), and libFuzzer learns
 * the secrets from the comparisons that look for them. */
void fixture_note_sent(const char *data, size_t n, bool sent[FIXTURE_SECRETS])
{
    for (int i = 0; i < FIXTURE_SECRETS; i++)
        if (holds_in_order(data, n, fixture_secrets[i])) sent[i] = true;
}

/* A streamed body (the PGN export) read to its end as http.c sends it,
 * malloc'd; its reading must end without an error. */
static char *drain_stream(const char *method, const char *path, const ApiReply *r)
{
    size_t len = 0, size = 4096;
    char *out = malloc(size);
    long n;
    while (out && (n = r->stream_read(r->stream_ctx, out + len, size - len - 1)) > 0) {
        len += (size_t)n;
        if (size - len < 1024) out = realloc(out, size *= 2);
    }
    FUZZ_CHECK(out && n == 0, "%s %s: the streamed body ended with an error", method, path);
    out[len] = '\0';
    return out;
}

void fixture_check_common(const char *method, const char *path, const ApiReply *r, const bool *sent)
{
    FUZZ_CHECK(r->status >= 200 && r->status <= 599, "%s %s: status %d", method, path, r->status);
    char *streamed = r->stream_read ? drain_stream(method, path, r) : NULL;
    if (r->status != 204)
        FUZZ_CHECK(!r->json != !(r->text || streamed), "%s %s: %s", method, path,
                   r->json ? "both a JSON and a text body" : "no body");
    FUZZ_CHECK(!(r->text || streamed) || (r->content_type && *r->content_type), "%s %s: a text body without a type",
               method, path);
    FUZZ_CHECK(!r->json || json_is_object(r->json), "%s %s: the JSON body is not an object", method, path);
    char *dump = r->json ? json_dumps(r->json, JSON_COMPACT) : NULL;
    FUZZ_CHECK(!r->json || dump, "%s %s: the JSON body cannot be written (http.c would drop the connection)", method,
               path);
    const char *body = dump ? dump : r->text ? r->text : streamed;
    if (r->status >= 400)
        FUZZ_CHECK(json_is_string(json_object_get(r->json, "error")), "%s %s: the error %d has no string \"error\": %s",
                   method, path, r->status, body ? body : "(none)");
    FUZZ_CHECK(r->status != 500 && r->status != 503, "%s %s: the server's own failure %d: %s", method, path, r->status,
               body ? body : "(none)");
    FUZZ_CHECK(sqlite3_get_autocommit(store_db()), "%s %s: a transaction was left open (status %d)", method, path,
               r->status);
    FUZZ_CHECK(store_idle(&store), "%s %s: a connection of the store was left taken", method, path);
    if (r->set_cookie) {
        char token[FIXTURE_TOKEN_CHARS + 1];
        fixture_cookie_token(r->set_cookie, token);
    }
    for (int i = 0; i < FIXTURE_SECRETS; i++)
        FUZZ_CHECK((sent && sent[i]) || !contains_n(body, body ? strlen(body) : 0, fixture_secrets[i]),
                   "%s %s: a reply carries %s: %s", method, path, FIXTURE_SECRET_NAMES[i], body);
    free(dump);
    free(streamed);
}

/* ---- The store, read directly -------------------------------------------- */

char *fixture_session_name(const char *token)
{
    char hash[65], *name = NULL;
    int64_t user;
    auth_token_hash(token, hash);
    if (!store_session_user(&store, hash, server_now_ms(), &user, &name)) name = NULL;
    return name;
}

bool fixture_user_exists(const char *name)
{
    int64_t id;
    bool found = store_user_id(&store, name, &id);
    return found;
}

bool fixture_events_after(const char *game, int64_t after, json_t *out)
{
    bool ok = store_events_after(&store, game, after, out);
    return ok;
}
