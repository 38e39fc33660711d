/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The JSON bodies of the server's state-changing requests, as http.c
 * hands them to api_handle (src/server/, linked in with TTCHESS_FUZZ; the
 * database and the games $0..$9 of fuzz/api_fixture.h, put back before
 * each input).
 *
 * The first byte picks the request (counted from 'a', modulo 20):
 *
 *     a register          b login               c logout (alice)
 *     d create a game (alice)                   e join $6 (bob)
 *     f join $6 (alice, its creator)
 *     g..k actions in $0..$4 by alice, White to move (chess, gifford,
 *          vangog, travelers, chessgi)
 *     l actions in $5 by bob (White, live clock)
 *     m actions in $0 by bob (not his turn)
 *     n actions in $7 by alice (the game is over)
 *     o actions in $8 by alice (against the engine)
 *     p actions in $9 by alice (Qxf7# mates)
 *     q actions in $6 by alice (waiting for an opponent)
 *     r kibitz on $0 by bob (a player)
 *     s kibitz on $7 by alice (over: open to all)
 *     t kibitz on $6 by bob (not a player)
 *
 * The rest is the body, bytes as they come (NUL and bytes that are not
 * UTF-8 included), except that "$0".."$9" stand for the games' ids and
 * "$i" for the invitation of $6 (random, so that a seed could not name
 * them otherwise).  A body over SERVER_MAX_BODY (16 KiB) is skipped:
 * http.c answers 413 before the API sees it.
 *
 * Every reply passes fixture_check_common (status 200..599, one body, a
 * JSON error with a string "error", never 500 or 503, no transaction left
 * open, the lock free, only the session cookie, no secret the input did
 * not send).  Then, the status each handler must give, worked out here
 * from the body as jansson reads it (JSON_REJECT_DUPLICATES, as api.c):
 *
 *   - a body that is not a JSON object: 400, whatever the route (logout
 *     reads no body: 200);
 *   - register: 400 without string name and password, for a name that is
 *     not 1..32 of [A-Za-z0-9_-] or a password not of 8..256 characters; 409
 *     for a name taken (ignoring ASCII case); else 201, and the cookie's
 *     session is the new user's;
 *   - login: 400 without string name and password; 200 exactly for alice
 *     or bob (the name in any case) with their passwords, the cookie's
 *     session then theirs; else 401 (or 429 for a name of 128 bytes or
 *     more: auth.c keeps the names of failed logins cut to 128 bytes, so
 *     that such a name may find the count of another, which the harness
 *     cannot forget after its input);
 *   - logout: 200, an empty cookie, and alice's session gone;
 *   - create: 400 without a known variant; a 201 only with a colour that
 *     is absent, not a string, "white", "black" or "random", not both a
 *     clock and days per move, an opponent only "bob" (any case), a level
 *     only 1..10 without an opponent; the game then reads back (GET) with
 *     that variant, at ply 0, waiting exactly when it has no opponent or
 *     level, a challenge when it names bob, alice on the colour she asked
 *     for; 422 only for a start where the game is over;
 *   - join: 200 exactly when "invite" is $6's invitation (bob), then $6
 *     is active with bob Black; 409 for alice with it; else 403;
 *   - actions: 400 without a string "action" and an integer "ply", or an
 *     action over 200 bytes; 409 for a ply not the game's or a game not
 *     in play; then resign 200 (the game over), offer-draw 200,
 *     offer-takeback 409 at ply 0, accept-draw, accept-takeback and
 *     decline 409 (no offer is open); any other text 403 when not the
 *     mover's turn, else 200 or 422.  A 200 for a move has the ply one
 *     more and a GET shows the same ply and FEN; any refusal leaves the
 *     game's ply and FEN as they were (a GET shows them, unless nothing
 *     at all was written: fixture_written);
 *   - kibitz: with a boolean "enabled", 403 for one not a player, 409
 *     when over, else 200 and the game's kibitz_enabled is the value;
 *     else 400 without a non-empty string text or with one over 500
 *     bytes, else 201 and the game's kibitz list ends with the text under
 *     the sender's name.
 */
#include <strings.h>

#include "api_fixture.h"

typedef enum Kind { REGISTER, LOGIN, LOGOUT, CREATE, JOIN, ACTION, KIBITZ } Kind;
typedef enum Who { NOBODY, ALICE, BOB } Who;

typedef struct Route {
    Kind kind;
    Who who;
    int game;   /* $n, or -1 */
    const char *what;
} Route;

static const Route ROUTES[] = {
    { REGISTER, NOBODY, -1, "register" },
    { LOGIN, NOBODY, -1, "login" },
    { LOGOUT, ALICE, -1, "logout" },
    { CREATE, ALICE, -1, "create a game" },
    { JOIN, BOB, 6, "join $6 (bob)" },
    { JOIN, ALICE, 6, "join $6 (alice)" },
    { ACTION, ALICE, 0, "actions in $0 (alice)" },
    { ACTION, ALICE, 1, "actions in $1 (alice)" },
    { ACTION, ALICE, 2, "actions in $2 (alice)" },
    { ACTION, ALICE, 3, "actions in $3 (alice)" },
    { ACTION, ALICE, 4, "actions in $4 (alice)" },
    { ACTION, BOB, 5, "actions in $5 (bob)" },
    { ACTION, BOB, 0, "actions in $0 (bob)" },
    { ACTION, ALICE, 7, "actions in $7 (alice)" },
    { ACTION, ALICE, 8, "actions in $8 (alice)" },
    { ACTION, ALICE, 9, "actions in $9 (alice)" },
    { ACTION, ALICE, 6, "actions in $6 (alice)" },
    { KIBITZ, BOB, 0, "kibitz on $0 (bob)" },
    { KIBITZ, ALICE, 7, "kibitz on $7 (alice)" },
    { KIBITZ, BOB, 6, "kibitz on $6 (bob)" },
};
enum { ROUTE_COUNT = sizeof ROUTES / sizeof ROUTES[0] };

/* What one request was, for the messages. */
typedef struct Request {
    const Route *route;
    char path[128];
    const char *body;
    size_t len;
    const ApiReply *reply;
} Request;

#define CHECK(rq, cond, ...)                                                                                        \
    do {                                                                                                            \
        if (!(cond)) {                                                                                              \
            char *reply_text_ = fixture_reply_text((rq)->reply);                                                    \
            fprintf(stderr, "%s: %d %s\n  body (%zu bytes): %.400s\n", (rq)->route->what, (rq)->reply->status,    \
                    reply_text_, (rq)->len, (rq)->body);                                                            \
            free(reply_text_);                                                                                      \
            FUZZ_CHECK(cond, __VA_ARGS__);                                                                          \
        }                                                                                                           \
    } while (0)

static const char *token_of(Who w) { return w == ALICE ? fixture_alice : w == BOB ? fixture_bob : NULL; }
static const char *name_of(Who w) { return w == ALICE ? "alice" : w == BOB ? "bob" : ""; }

/* The body with the $ names replaced. */
static void substitute(const uint8_t *src, size_t n, Text *out)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = i + 1 < n ? src[i + 1] : 0;
        if (src[i] == '$' && c >= '0' && c <= '9') {
            text_add(out, fixture_games[c - '0'].id);
            i++;
        } else if (src[i] == '$' && c == 'i') {
            text_add(out, fixture_invite);
            i++;
        } else {
            text_add_n(out, (const char *)src + i, 1);
        }
    }
}

static const char *member_string(json_t *o, const char *name)
{
    json_t *v = json_object_get(o, name);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    return n >= 1 && n <= 32 &&
           strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* The new session of a reply's cookie: whose it is (malloc'd), or NULL. */
static char *cookie_user(const Request *rq)
{
    char token[FIXTURE_TOKEN_CHARS + 1];
    CHECK(rq, rq->reply->set_cookie && fixture_cookie_token(rq->reply->set_cookie, token), "no session opened");
    return fixture_session_name(token);
}

/* A password's length in characters (code points of its UTF-8), as the
 * server counts it: 3 emoji are 3 characters, not 12 bytes. */
static size_t characters(const char *text)
{
    size_t n = 0;
    for (; *text; text++) n += ((unsigned char)*text & 0xC0) != 0x80;
    return n;
}

static void check_register(const Request *rq, json_t *body, bool taken)
{
    const char *name = member_string(body, "name"), *password = member_string(body, "password");
    int want = !name || !password                                   ? 400
               : !valid_name(name)                                  ? 400
               : characters(password) < 8 || characters(password) > 256 ? 400
               : taken                                              ? 409
                                                                    : 201;
    CHECK(rq, rq->reply->status == want, "register: %d, not %d", rq->reply->status, want);
    if (want == 201) {
        char *who = cookie_user(rq);
        CHECK(rq, who && !strcmp(who, name), "the new session is %s's, not %s's", who ? who : "nobody", name);
        free(who);
    }
}

static void check_login(const Request *rq, json_t *body)
{
    const char *name = member_string(body, "name"), *password = member_string(body, "password");
    if (!name || !password) {
        CHECK(rq, rq->reply->status == 400, "a login without name or password: %d", rq->reply->status);
        return;
    }
    const char *user = !strcasecmp(name, "alice") && !strcmp(password, "alice-password") ? "alice"
                       : !strcasecmp(name, "bob") && !strcmp(password, "bob-password")   ? "bob"
                                                                                           : NULL;
    int got = rq->reply->status;
    CHECK(rq, user ? got == 200 : got == 401 || (got == 429 && strlen(name) >= 128), "a login of %s: %d",
          user ? user : "nobody", got);
    if (user) {
        char *who = cookie_user(rq);
        CHECK(rq, who && !strcmp(who, user), "the session opened is %s's, not %s's", who ? who : "nobody", user);
        CHECK(rq, !strcmp(member_string(rq->reply->json, "name") ? member_string(rq->reply->json, "name") : "", name),
              "the reply names another");
        free(who);
    }
    fixture_forget_login(name);
}

static void check_logout(const Request *rq)
{
    char token[FIXTURE_TOKEN_CHARS + 1];
    CHECK(rq, rq->reply->status == 200, "logout: %d", rq->reply->status);
    CHECK(rq, rq->reply->set_cookie && !fixture_cookie_token(rq->reply->set_cookie, token),
          "logout: the cookie is not emptied");
    char *who = fixture_session_name(fixture_alice);
    CHECK(rq, !who, "alice's session survives her logout");
}

static void check_create(const Request *rq, json_t *body)
{
    const char *variant = member_string(body, "variant");
    const Variant *v = variant ? variant_find(variant) : NULL;
    int got = rq->reply->status;
    if (!v) {
        CHECK(rq, got == 400, "a game of no known variant: %d", got);
        return;
    }
    if (got != 201) {
        /* 422: a start position where the game is over already. */
        CHECK(rq, got == 400 || got == 422, "create: %d", got);
        return;
    }
    const char *color = member_string(body, "color"), *opponent = member_string(body, "opponent");
    json_t *level = json_object_get(body, "level");
    CHECK(rq, !color || !strcmp(color, "white") || !strcmp(color, "black") || !strcmp(color, "random"),
          "created with color '%s'", color);
    CHECK(rq, !json_object_get(body, "clock") || !json_object_get(body, "days_per_move"),
          "created with a clock and days per move");
    CHECK(rq, !opponent || !strcasecmp(opponent, "bob"), "created against another opponent than bob");
    CHECK(rq, !level || (json_is_integer(level) && json_integer_value(level) >= 1 && json_integer_value(level) <= 10 &&
                         !opponent),
          "created with a bad level");

    const char *id = member_string(rq->reply->json, "id");
    CHECK(rq, id, "no id");
    json_t *st = fixture_state(fixture_alice, id);
    bool waiting = !opponent && !level;
    const char *status = member_string(st, "status"), *you = member_string(st, "you");
    CHECK(rq, !strcmp(member_string(st, "variant"), v->name), "the game is of %s, not %s", member_string(st, "variant"),
          v->name);
    CHECK(rq, json_integer_value(json_object_get(st, "ply")) == 0, "a new game at ply %lld",
          (long long)json_integer_value(json_object_get(st, "ply")));
    CHECK(rq, !strcmp(status, waiting ? "waiting" : opponent ? "challenge" : "active"), "a new game %s", status);
    CHECK(rq, you && (!color || strcmp(color, you) == 0 || !strcmp(color, "random")), "alice plays %s, not %s",
          you ? you : "nothing", color);
    CHECK(rq, !waiting || json_is_string(json_object_get(rq->reply->json, "invite_url")),
          "a waiting game without an invitation");
    json_decref(st);
}

static void check_join(const Request *rq, json_t *body)
{
    const char *invite = member_string(body, "invite");
    bool right = invite && !strcmp(invite, fixture_invite);
    int want = !right ? 403 : rq->route->who == BOB ? 200 : 409;
    CHECK(rq, rq->reply->status == want, "join: %d, not %d", rq->reply->status, want);
    if (want == 200) {
        json_t *st = fixture_state(fixture_bob, fixture_games[6].id);
        CHECK(rq, !strcmp(member_string(st, "status"), "active") && member_string(st, "you") &&
                      !strcmp(member_string(st, "you"), "black"),
              "after the join $6 is %s and bob %s", member_string(st, "status"),
              member_string(st, "you") ? member_string(st, "you") : "not in it");
        json_decref(st);
    }
}

/* The game as a GET shows it: its ply and FEN. */
static void game_now(const FixtureGame *g, json_int_t *ply, char **fen, char **status)
{
    json_t *st = fixture_state(fixture_alice, g->id);
    *ply = json_integer_value(json_object_get(st, "ply"));
    *fen = strdup(member_string(st, "fen"));
    *status = strdup(member_string(st, "status"));
    if (!*fen || !*status) abort();
    json_decref(st);
}

static void check_action(const Request *rq, json_t *body)
{
    const FixtureGame *g = &fixture_games[rq->route->game];
    const char *token = token_of(rq->route->who);
    const char *action = member_string(body, "action");
    json_t *ply = json_object_get(body, "ply");
    bool mover = fixture_mover(g) == token;
    int got = rq->reply->status, want = 0;   /* 0: 200 or 422 */
    bool move = false;
    if (!action || !json_is_integer(ply) || strlen(action) > 200) want = 400;
    else if (json_integer_value(ply) != g->ply || !g->active) want = 409;
    else if (!strcmp(action, "resign") || !strcmp(action, "offer-draw")) want = 200;
    else if (!strcmp(action, "offer-takeback")) want = g->ply ? 200 : 409;
    else if (!strcmp(action, "accept-draw") || !strcmp(action, "accept-takeback") || !strcmp(action, "decline"))
        want = 409;
    else if (!mover) want = 403;
    else move = true;
    if (move) CHECK(rq, got == 200 || got == 422, "a move: %d", got);
    else CHECK(rq, got == want, "actions: %d, not %d", got, want);
    if (got == 422) {
        const char *why = member_string(rq->reply->json, "error");
        CHECK(rq, why && *why, "an illegal action without a reason");
    }

    /* A request that wrote nothing left every game as it was. */
    if (got != 200 && !fixture_written()) return;
    json_int_t ply_now;
    char *fen_now, *status_now;
    game_now(g, &ply_now, &fen_now, &status_now);
    if (got == 200 && move) {
        json_int_t replied = json_integer_value(json_object_get(rq->reply->json, "ply"));
        const char *fen = member_string(rq->reply->json, "fen");
        CHECK(rq, replied == g->ply + 1, "an action at ply %d gives ply %lld", g->ply, (long long)replied);
        CHECK(rq, ply_now == replied && fen && !strcmp(fen, fen_now),
              "the game reads back at ply %lld, %s, not as replied (%lld, %s)", (long long)ply_now, fen_now,
              (long long)replied, fen ? fen : "no fen");
    } else {
        CHECK(rq, ply_now == g->ply && !strcmp(fen_now, g->fen_now),
              "after %d the game is at ply %lld, %s, not %d, %s", got, (long long)ply_now, fen_now, g->ply,
              g->fen_now);
        if (got == 200 && !strcmp(action, "resign"))
            CHECK(rq, !strcmp(status_now, "over"), "a resigned game is %s", status_now);
    }
    free(fen_now);
    free(status_now);
}

static void check_kibitz(const Request *rq, json_t *body)
{
    const FixtureGame *g = &fixture_games[rq->route->game];
    const char *token = token_of(rq->route->who);
    bool player = g->white == token || g->black == token;
    const char *text = member_string(body, "text");
    json_t *enabled = json_object_get(body, "enabled");
    int want = json_is_boolean(enabled) ? (!player ? 403 : g->over ? 409 : 200)
               : !text || !*text || strlen(text) > 500 ? 400
                                                       : 201;
    CHECK(rq, rq->reply->status == want, "kibitz: %d, not %d", rq->reply->status, want);
    if (want == 200) {
        json_t *st = fixture_state(token, g->id);
        CHECK(rq, json_is_true(json_object_get(st, "kibitz_enabled")) == json_is_true(enabled),
              "kibitz_enabled is not what was sent");
        json_decref(st);
    } else if (want == 201) {
        char path[128];
        snprintf(path, sizeof path, "/api/games/%s/kibitz", g->id);
        ApiReply r;
        fixture_request(NULL, "GET", path, "", 0, NULL, &r);
        json_t *list = json_object_get(r.json, "kibitz");
        json_t *last = json_array_get(list, json_array_size(list) ? json_array_size(list) - 1 : 0);
        CHECK(rq, r.status == 200 && last && !strcmp(member_string(last, "text"), text) &&
                      !strcmp(member_string(last, "name"), name_of(rq->route->who)),
              "the kibitz list does not end with the comment (%d)", r.status);
        api_reply_free(&r);
    }
}

const FixtureNeed fixture_need = FIXTURE_BASE;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fixture_setup(fixture_need == FIXTURE_STARTS);
    if (size < 1) return 0;
    const Route *route = &ROUTES[(uint8_t)(data[0] - 'a') % ROUTE_COUNT];
    Text body = TEXT_INIT;
    substitute(data + 1, size - 1, &body);
    FUZZ_CHECK(!body.failed, "out of memory");
    if (body.len > SERVER_MAX_BODY) {
        /* http.c answers 413 before the API sees it. */
        text_free(&body);
        return 0;
    }
    fixture_restore();

    Request rq = { .route = route, .body = text_str(&body), .len = body.len };
    const FixtureGame *g = route->game >= 0 ? &fixture_games[route->game] : NULL;
    static const char *const PATHS[] = { [REGISTER] = "/api/register", [LOGIN] = "/api/login",
                                         [LOGOUT] = "/api/logout",     [CREATE] = "/api/games",
                                         [JOIN] = "/api/games/%s/join", [ACTION] = "/api/games/%s/actions",
                                         [KIBITZ] = "/api/games/%s/kibitz" };
    snprintf(rq.path, sizeof rq.path, PATHS[route->kind], g ? g->id : "");
    bool sent[FIXTURE_SECRETS] = { false };
    fixture_note_sent(rq.body, rq.len, sent);
    json_error_t e;
    json_t *obj = json_loadb(rq.body, rq.len, JSON_REJECT_DUPLICATES, &e);
    const char *name = member_string(obj, "name");
    bool taken = route->kind == REGISTER && name && fixture_user_exists(name);

    ApiReply r;
    fixture_request(token_of(route->who), "POST", rq.path, rq.body, rq.len, NULL, &r);
    rq.reply = &r;
    const char *error = json_string_value(json_object_get(r.json, "error"));
    FUZZ_SAY("%s -> %d %s\n", route->what, r.status, error ? error : "");
    fixture_check_common("POST", rq.path, &r, sent);

    if (route->kind == LOGOUT) {
        check_logout(&rq);
    } else if (!json_is_object(obj)) {
        CHECK(&rq, r.status == 400, "a body that is not a JSON object: %d", r.status);
    } else {
        switch (route->kind) {
        case REGISTER: check_register(&rq, obj, taken); break;
        case LOGIN: check_login(&rq, obj); break;
        case CREATE: check_create(&rq, obj); break;
        case JOIN: check_join(&rq, obj); break;
        case ACTION: check_action(&rq, obj); break;
        case KIBITZ: check_kibitz(&rq, obj); break;
        case LOGOUT: break;
        }
    }
    json_decref(obj);
    api_reply_free(&r);
    text_free(&body);
    return 0;
}
