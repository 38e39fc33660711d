/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The handlers of docs/api.md.  They run in parallel, each on the
 * connections of the store's pool (store.c), inside one transaction when
 * it writes, and commit before they reply: an action the player sees
 * acknowledged is on disk.  A write based on a game's row that has since
 * changed (a concurrent request, here or on another server) fails as
 * stale and is answered 409.
 *
 * Status codes: 400 a malformed request, 401 not logged in, 403 not
 * allowed (not a player, not your turn), 404 no such game, 409 a stale
 * ply or a game not in play, 413 too large (http.c), 422 an illegal
 * action (with the rule's sentence), 429 too many login attempts, 500 the
 * server's own failure, 503 the database cannot be written.
 */
#include "api.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ttchess/diagram.h"
#include "ttchess/pgn.h"
#include "ttchess/sheets.h"

/* ---- Replies ------------------------------------------------------------ */

static void reply_json(ApiReply *r, int status, json_t *body)
{
    r->status = status;
    if (r->json) json_decref(r->json);
    r->json = body ? body : json_pack("{s:s}", "error", "out of memory");
    if (!body) r->status = 500;
}

/* An error's sentence may quote what the player sent, cut anywhere (the
 * library quotes "the one character" of a FEN that it could not read,
 * which may be one byte of a longer UTF-8 one): bytes that are not UTF-8
 * are shown as '?', so that the reply is still JSON and says why. */
static void reply_error(ApiReply *r, int status, const char *message)
{
    json_t *text = json_string(message);
    if (!text) {
        char *clean = strdup(message);
        for (size_t i = 0; clean && clean[i];) {
            size_t n = 1;
            while (clean[i + n] && n < 4 && ((unsigned char)clean[i + n] & 0xC0) == 0x80) n++;
            json_t *piece = json_stringn(clean + i, n);
            if (piece) {
                json_decref(piece);
                i += n;
            } else {
                clean[i++] = '?';
            }
        }
        text = clean ? json_string(clean) : NULL;
        free(clean);
    }
    reply_json(r, status, text ? json_pack("{s:o}", "error", text) : NULL);
}

static void reply_text(ApiReply *r, int status, const char *type, char *text)
{
    r->status = text ? status : 500;
    r->content_type = type;
    r->text = text ? text : strdup("out of memory");
}

void api_reply_free(ApiReply *r)
{
    if (r->json) json_decref(r->json);
    free(r->text);
    free(r->set_cookie);
    memset(r, 0, sizeof *r);
}

/* ---- Reading requests ----------------------------------------------------- */

/* The body as a JSON object, or NULL after a 400 reply. */
static json_t *body_object(const ApiRequest *req, ApiReply *r)
{
    json_error_t e;
    json_t *body = json_loadb(req->body, req->body_len, JSON_REJECT_DUPLICATES, &e);
    if (!body || !json_is_object(body)) {
        char message[256];
        snprintf(message, sizeof message, "the request body must be a JSON object (%s)",
                 body ? "it is another JSON value" : e.text);
        reply_error(r, 400, message);
        if (body) json_decref(body);
        return NULL;
    }
    return body;
}

/* A string member, or NULL when absent or not a string. */
static const char *member_string(json_t *o, const char *name)
{
    json_t *v = json_object_get(o, name);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Does the path match `pattern`, where each "*" is one path segment?
 * The segments matched are copied to `out` (up to 2, each up to 63
 * characters: game ids are 16). */
static bool route(const char *path, const char *pattern, char out[][64])
{
    int n = 0;
    while (*pattern) {
        if (*pattern == '*') {
            size_t len = strcspn(path, "/");
            if (len == 0 || len >= 64 || n >= 2) return false;
            memcpy(out[n], path, len);
            out[n++][len] = '\0';
            path += len;
            pattern++;
        } else if (*pattern++ != *path++) {
            return false;
        }
    }
    return *path == '\0';
}

/* A name: 1..SERVER_MAX_NAME letters, digits, '_' or '-' (so that it is
 * safe in a URL and cannot impersonate another name by look-alikes). */
static bool valid_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > SERVER_MAX_NAME) return false;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)name[i]) && name[i] != '_' && name[i] != '-') return false;
    return true;
}

/* ---- Accounts ------------------------------------------------------------- */

/* The session cookie; Secure when the server is reached over https (its
 * --origin), so that the browser never sends it in clear. */
static char *session_cookie(const ApiRequest *req, const char *token, int max_age)
{
    char *c = malloc(200);
    if (c)
        snprintf(c, 200, "ttchess_session=%s; HttpOnly; SameSite=Strict; Path=/; Max-Age=%d%s", token ? token : "",
                 max_age, req->secure ? "; Secure" : "");
    return c;
}

/* Opens a session for the user and sets its cookie. */
static bool open_session(Store *s, const ApiRequest *req, int64_t user, ApiReply *r)
{
    char token[2 * SERVER_TOKEN_BYTES + 1], hash[65];
    auth_new_token(token);
    auth_token_hash(token, hash);
    if (!store_session_add(s, hash, user, server_now_ms() + SERVER_SESSION_DAYS * 86400000LL)) return false;
    r->set_cookie = session_cookie(req, token, SERVER_SESSION_DAYS * 86400);
    return r->set_cookie != NULL;
}

/* The length of a password as a person counts it: in characters (Unicode
 * code points), not bytes.  The text is valid UTF-8 (jansson checks it),
 * so the characters are the bytes that do not continue one. */
static size_t characters(const char *text)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) n += (*p & 0xC0) != 0x80;
    return n;
}

static const char HASH_BUSY[] = "the server is checking many passwords right now: try again in a few seconds";

static void api_register(Store *s, const ApiRequest *req, ApiReply *r)
{
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *name = member_string(body, "name"), *password = member_string(body, "password");
    if (!name || !password) {
        reply_error(r, 400, "give a name and a password");
    } else if (!valid_name(name)) {
        reply_error(r, 400, "a name is 1 to 32 letters, digits, '_' or '-'");
    } else if (characters(password) < SERVER_MIN_PASSWORD || characters(password) > SERVER_MAX_PASSWORD) {
        reply_error(r, 400, "a password is 8 to 256 characters");
    } else {
        char hash[128];
        int64_t id;
        bool taken;
        AuthStatus hashed;
        /* A taken name is refused before the costly hash (and the insert
         * below refuses it again if two registrations race for it). */
        if (store_user_id(s, name, &id)) {
            reply_error(r, 409, "that name is taken");
        } else if (!auth_register_allowed(req->client, server_now_ms())) {
            char why[160];
            snprintf(why, sizeof why, "at most %d new accounts an hour from one address: try again later",
                     auth_register_limit());
            reply_error(r, 429, why);
        } else if ((hashed = auth_hash_password(password, hash)) != AUTH_OK) {
            reply_error(r, hashed == AUTH_BUSY ? 503 : 500, hashed == AUTH_BUSY ? HASH_BUSY : "out of memory");
        } else if (!store_begin(s)) {
            reply_error(r, 503, "the database cannot be written now");
        } else if (!store_user_add(s, name, hash, &id, &taken)) {
            store_rollback(s);
            reply_error(r, taken ? 409 : 503, taken ? "that name is taken" : "the database cannot be written now");
        } else if (!open_session(s, req, id, r) || !store_commit(s)) {
            store_rollback(s);
            reply_error(r, 503, "the database cannot be written now");
        } else {
            reply_json(r, 201, json_pack("{s:s}", "name", name));
        }
    }
    json_decref(body);
}

/* A login: the name's attempt is taken before the password is checked
 * (auth.c), so that parallel requests cannot check more passwords than
 * the limit; a name that does not exist is checked against a decoy at the
 * same cost and never counted (no password can be guessed for it). */
static void api_login(Store *s, const ApiRequest *req, ApiReply *r)
{
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *name = member_string(body, "name"), *password = member_string(body, "password");
    int64_t now = server_now_ms(), id = 0;
    char *hash = NULL;
    if (!name || !password) {
        reply_error(r, 400, "give a name and a password");
    } else if (!store_user_hash(s, name, &id, &hash)) {
        reply_error(r, 503, "the database cannot be read now");
    } else if (hash && !auth_login_begin(name, now)) {
        reply_error(r, 429, "too many failed logins for this name: wait a minute and try again");
    } else {
        AuthStatus checked = auth_check_password(hash, password);
        if (hash) auth_login_end(name, checked, now);
        if (checked == AUTH_BUSY) {
            reply_error(r, 503, HASH_BUSY);
        } else if (checked != AUTH_OK) {
            reply_error(r, 401, "wrong name or password");
        } else if (!store_begin(s) || !open_session(s, req, id, r) || !store_commit(s)) {
            store_rollback(s);
            reply_error(r, 503, "the database cannot be written now");
        } else {
            reply_json(r, 200, json_pack("{s:s}", "name", name));
        }
    }
    free(hash);
    json_decref(body);
}

static void api_logout(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (req->session_token) {
        char hash[65];
        auth_token_hash(req->session_token, hash);
        store_session_remove(s, hash);
    }
    r->set_cookie = session_cookie(req, NULL, 0);
    reply_json(r, 200, json_pack("{s:b}", "ok", 1));
}

/* ---- Creating games ----------------------------------------------------- */

/* The clock of a new game from its request: "clock": {"minutes",
 * "increment"} (live), or "days_per_move"; neither: correspondence at 3
 * days a move.  False after a 400 reply. */
static bool read_clock(json_t *body, GameRow *g, ApiReply *r)
{
    json_t *clock = json_object_get(body, "clock"), *days = json_object_get(body, "days_per_move");
    if (clock && days) {
        reply_error(r, 400, "give a live clock or days per move, not both");
        return false;
    }
    if (clock) {
        json_t *min = json_object_get(clock, "minutes"), *inc = json_object_get(clock, "increment");
        double m = json_is_number(min) ? json_number_value(min) : -1;
        double i = inc ? (json_is_number(inc) ? json_number_value(inc) : -1) : 0;
        /* A clock too small to count in milliseconds would be no clock at
         * all (1e-300 minutes is 0 ms): a clock has at least a second. */
        if (!(m > 0 && m <= SERVER_CLOCK_MAX_MINUTES && m * 60000 >= SERVER_CLOCK_MIN_MS) ||
            !(i >= 0 && i <= SERVER_CLOCK_MAX_INCREMENT_S)) {
            char why[200];
            snprintf(why, sizeof why,
                     "a live clock is {\"minutes\": more than 0 (at least a second) and at most %d, "
                     "\"increment\": 0 to %d seconds}",
                     SERVER_CLOCK_MAX_MINUTES, SERVER_CLOCK_MAX_INCREMENT_S);
            reply_error(r, 400, why);
            return false;
        }
        g->base_ms = (int64_t)(m * 60000);
        g->inc_ms = (int64_t)(i * 1000);
        g->white_ms = g->black_ms = g->base_ms;
        return true;
    }
    json_int_t d = days ? (json_is_integer(days) ? json_integer_value(days) : -1) : 3;
    if (d < SERVER_MIN_DAYS || d > SERVER_MAX_DAYS) {
        char why[96];
        snprintf(why, sizeof why, "days_per_move is a whole number from %d to %d", SERVER_MIN_DAYS, SERVER_MAX_DAYS);
        reply_error(r, 400, why);
        return false;
    }
    g->days_per_move = (int)d;
    return true;
}

/* After a committed change to a game with the engine in a seat: the
 * engine looks whether it must move or answer an offer (opponent.c). */
static void wake_engine(Store *s, const GameRow *row)
{
    if ((row->white != -1 && row->black != -1) || !strcmp(row->status, "over")) return;
    pthread_mutex_lock(&s->hooks_lock);
    if (s->wake_engine) s->wake_engine(s->wake_ctx, row->id);
    pthread_mutex_unlock(&s->hooks_lock);
}

/* A player's count of something against its limit: true while under it;
 * else 429 with the sentence (whose %d is the limit), or 503 when the
 * count could not be read (-1). */
static bool under_limit(int64_t count, int limit, const char *sentence, ApiReply *r)
{
    if (count < 0) return reply_error(r, 503, "the database cannot be read now"), false;
    if (count < limit) return true;
    char why[160];
    snprintf(why, sizeof why, sentence, limit);
    reply_error(r, 429, why);
    return false;
}

/* A player may have SERVER_MAX_UNFINISHED_GAMES games waiting or in play
 * (docs/api.md, "Limits"): each costs the server a little for as long as
 * it lasts, and a script could otherwise open them without end. */
static bool under_game_limit(Store *s, int64_t user, ApiReply *r)
{
    return under_limit(store_games_unfinished(s, user), SERVER_MAX_UNFINISHED_GAMES,
                       "you have %d games waiting or in play, the most a player may have: finish some first", r);
}

/* The variant, options and start position of a new game, checked by the
 * library: a position in which the game is already over is refused, since
 * such a game would be in play with nothing to play.  Sets g's variant and
 * side to move; false after a 400 or 422 reply. */
static bool read_start(json_t *body, GameRow *g, ApiReply *r)
{
    const char *variant = member_string(body, "variant"), *options = member_string(body, "options");
    const char *fen = member_string(body, "fen");
    const Variant *v = variant ? variant_find(variant) : NULL;
    Text err = TEXT_INIT, result = TEXT_INIT, reason = TEXT_INIT;
    Options opts;
    Game test;
    bool ok = false;
    if (!v) {
        Text names = TEXT_INIT;
        variant_names(&names);
        text_addf(&err, "unknown variant '%s'; the variants are: %s", variant ? variant : "", text_str(&names));
        text_free(&names);
        reply_error(r, 400, text_str(&err));
    } else if (options_default(v, &opts), options && !options_parse(v, &opts, options, &err)) {
        reply_error(r, 400, text_str(&err));
    } else if (!game_init(&test, v, &opts, fen, &err)) {
        game_free(&test);
        reply_error(r, 400, text_str(&err));
    } else {
        if (play_outcome(&test, &result, &reason)) {
            text_clear(&err);
            text_addf(&err, "the game is already over in this position: %s", text_str(&reason));
            reply_error(r, 422, text_str(&err));
        } else {
            g->variant = (char *)v->name;
            g->options = (char *)options;
            g->fen = (char *)fen;
            g->to_move = game_board(&test)->side;
            ok = true;
        }
        game_free(&test);
    }
    text_free(&err);
    text_free(&result);
    text_free(&reason);
    return ok;
}

/* Who takes the other seat: the engine ("level"), a player challenged by
 * name ("opponent": seated only when they accept), or whoever opens the
 * invitation link (neither).  Sets g's status and invitation; *other is
 * the other seat's id (0 while open).  False after a reply. */
static bool read_opponent(Store *s, const ApiRequest *req, json_t *body, GameRow *g, int64_t *other,
                          char invite[2 * SERVER_TOKEN_BYTES + 1], ApiReply *r)
{
    const char *opponent = member_string(body, "opponent");
    json_t *level = json_object_get(body, "level");
    *other = 0;
    if (level) {
        json_int_t lv = json_is_integer(level) ? json_integer_value(level) : 0;
        if (lv < 1 || lv > 10 || opponent)
            return reply_error(r, 400, "to play the engine, give \"level\": 1 to 10 and no opponent"), false;
        g->engine_level = (int)lv;
        *other = -1;
        g->status = "active";
        return true;
    }
    if (!opponent) {
        auth_new_token(invite);
        g->invite_token = invite;
        g->status = "waiting";
        return true;
    }
    int64_t them;
    bool blocked = false;
    if (!store_user_id(s, opponent, &them)) return reply_error(r, 400, "no player of that name"), false;
    if (them == req->user) return reply_error(r, 400, "challenge someone else, or play the engine"), false;
    if (!store_blocked(s, req->user, them, &blocked)) return reply_error(r, 503, "the database cannot be read now"), false;
    if (blocked) return reply_error(r, 403, "this player does not accept challenges from you"), false;
    g->invited = them;
    g->status = "challenge";
    return true;
}

/* A challenger may have SERVER_MAX_CHALLENGES challenges open: each is a
 * line in somebody's lobby, and a script could otherwise fill every
 * lobby.  Counted inside the creating transaction (store_lock_user). */
static bool under_challenge_limit(Store *s, int64_t user, ApiReply *r)
{
    return under_limit(store_challenges_sent(s, user), SERVER_MAX_CHALLENGES,
                       "you have %d challenges waiting for an answer, the most a player may have", r);
}

/* The limits are counted and the game written in one transaction with the
 * player's row locked, so that requests sent together cannot pass a limit
 * (store_lock_user). */
static bool add_game_within_limits(Store *s, const GameRow *g, ApiReply *r)
{
    if (!store_begin(s)) return reply_error(r, 503, "the database cannot be written now"), false;
    bool within = true;
    if (!store_lock_user(s, g->creator)) within = (reply_error(r, 503, "the database cannot be written now"), false);
    else within = under_game_limit(s, g->creator, r) && (!g->invited || under_challenge_limit(s, g->creator, r));
    if (!within) {
        store_rollback(s);
        return false;
    }
    if (!store_game_add(s, g) || !store_commit(s)) {
        store_rollback(s);
        return reply_error(r, 503, "the database cannot be written now"), false;
    }
    return true;
}

static void api_create_game(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to create a game");
        return;
    }
    json_t *body = body_object(req, r);
    if (!body) return;
    GameRow g = { .creator = req->user, .kibitz = true };
    const char *color = member_string(body, "color");
    char id[2 * SERVER_TOKEN_BYTES + 1], invite[2 * SERVER_TOKEN_BYTES + 1] = "";
    int64_t other;
    bool creator_white = !color || !strcmp(color, "random") ? auth_coin() : !strcmp(color, "white");
    if (color && strcmp(color, "random") && strcmp(color, "white") && strcmp(color, "black")) {
        reply_error(r, 400, "color is \"white\", \"black\" or \"random\"");
    } else if (read_start(body, &g, r) && read_clock(body, &g, r) &&
               read_opponent(s, req, body, &g, &other, invite, r)) {
        auth_new_token(id);
        id[16] = '\0';   /* 64 bits: game ids are public, only invitations are secret */
        g.id = id;
        g.white = creator_white ? req->user : other;
        g.black = creator_white ? other : req->user;
        if (add_game_within_limits(s, &g, r)) {
            char url[64], invite_url[128];
            snprintf(url, sizeof url, "/games/%s", id);
            snprintf(invite_url, sizeof invite_url, "/games/%s?invite=%s", id, invite);
            reply_json(r, 201, json_pack("{s:s, s:s, s:s?, s:b}", "id", id, "url", url, "invite_url",
                                         g.invite_token ? invite_url : NULL, "challenge", g.invited != 0));
            wake_engine(s, &g);
        }
    }
    json_decref(body);
}

/* ---- One game ------------------------------------------------------------- */

static void set_string(char **field, const char *value)
{
    free(*field);
    *field = value ? strdup(value) : NULL;
}

/* Loads a game's row, or replies 404 (or 503). */
static bool load_row(Store *s, const char *id, GameRow *row, ApiReply *r)
{
    bool found;
    if (!store_game_get(s, id, row, &found)) {
        reply_error(r, 503, "the database cannot be read now");
        return false;
    }
    if (!found) reply_error(r, 404, "no such game");
    return found;
}

/* Loads row and game, or replies: the game from the cache when it holds
 * this version of it, else replayed.  A take-back committed between the
 * reading of the row and of its actions gives a reading to make again. */
static bool load_game(Store *s, const char *id, GameRow *row, Game *g, ApiReply *r)
{
    for (int attempt = 0;; attempt++) {
        if (!load_row(s, id, row, r)) return false;
        if (cache_take(s->cache, id, row->version, g)) return true;
        Text err = TEXT_INIT;
        bool ok = play_load(s, row, g, &err);
        bool again = !ok && !strcmp(text_str(&err), PLAY_MOVED_ON) && attempt < 3;
        if (!ok && !again) reply_error(r, 500, text_str(&err));
        text_free(&err);
        if (ok) return true;
        store_game_free(row);
        game_free(g);
        if (!again) return false;
    }
}

static void api_get_game(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    GameRow row;
    Game g;
    if (!load_game(s, id, &row, &g, r)) return;
    reply_json(r, 200, play_state(&row, &g, req->user));
    cache_put(s->cache, id, row.version, &g);
    store_game_free(&row);
}

/* Seats `user` in the game's open seat and starts it, with the joiner's
 * game limit counted in the same transaction (store_lock_user); `event`
 * is the event's type.  The caller has checked who may take the seat. */
static void take_seat(Store *s, GameRow *row, int64_t user, const char *event, ApiReply *r)
{
    if (!row->white) row->white = user;
    else row->black = user;
    free(row->invite_token);
    row->invite_token = NULL;
    set_string(&row->status, "active");
    char data[64];
    snprintf(data, sizeof data, "{\"joined\":\"%s\"}", row->white == user ? "white" : "black");
    bool stale = false;
    if (!row->status || !store_begin(s)) {
        reply_error(r, 503, "the database cannot be written now");
    } else if (!store_lock_user(s, user)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
    } else if (!under_game_limit(s, user, r)) {
        store_rollback(s);
    } else if (!store_game_update(s, row, &stale) || !store_event_add(s, row->id, event, row->ply, data) ||
               !store_commit(s)) {
        store_rollback(s);
        if (stale) reply_error(r, 409, "someone else has just changed this game: reload it");
        else reply_error(r, 503, "the database cannot be written now");
    } else {
        events_notify();
        reply_json(r, 200, json_pack("{s:s}", "id", row->id));
    }
}

static void api_join(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to join a game");
        return;
    }
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *invite = member_string(body, "invite");
    GameRow row;
    if (load_row(s, id, &row, r)) {
        if (!invite || !row.invite_token || strcmp(invite, row.invite_token)) {
            reply_error(r, 403, "this invitation is not valid (or its seat is taken)");
        } else if (row.white == req->user || row.black == req->user) {
            reply_error(r, 409, "you are already a player of this game");
        } else {
            take_seat(s, &row, req->user, "joined", r);
        }
        store_game_free(&row);
    }
    json_decref(body);
}

/* A challenge is accepted by the player it names, who then takes the open
 * seat; it is declined by them, or withdrawn by the challenger.  Until it
 * is accepted nobody may act in the game, and it does not count toward the
 * challenged player's games (docs/api.md, "Challenges"). */
static void api_answer_challenge(Store *s, const ApiRequest *req, const char *id, bool accept, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to answer a challenge");
        return;
    }
    GameRow row;
    if (!load_row(s, id, &row, r)) return;
    bool challenged = row.invited == req->user, challenger = row.creator == req->user;
    if (strcmp(row.status, "challenge") || !row.invited) {
        reply_error(r, (challenged || challenger) ? 409 : 403,
                    (challenged || challenger) ? "this challenge is no longer open" : "this challenge is not yours");
    } else if (accept ? !challenged : !(challenged || challenger)) {
        reply_error(r, 403, accept ? "this challenge is addressed to another player" : "this challenge is not yours");
    } else if (accept) {
        take_seat(s, &row, req->user, "accepted", r);
    } else {
        char reason[96], data[160];
        snprintf(reason, sizeof reason, "%s by %s", challenged ? "declined" : "withdrawn", req->user_name);
        json_t *d = json_pack("{s:s}", "reason", reason);
        char *dump = d ? json_dumps(d, JSON_COMPACT) : NULL;
        snprintf(data, sizeof data, "%s", dump ? dump : "{}");
        free(dump);
        json_decref(d);
        set_string(&row.status, "declined");
        set_string(&row.reason, reason);
        bool stale = false;
        if (!row.status || !row.reason || !store_begin(s)) {
            reply_error(r, 503, "the database cannot be written now");
        } else if (!store_game_update(s, &row, &stale) || !store_event_add(s, id, "declined", row.ply, data) ||
                   !store_commit(s)) {
            store_rollback(s);
            reply_error(r, stale ? 409 : 503, stale ? "this challenge has just changed: reload it" : "the database cannot be written now");
        } else {
            events_notify();
            reply_json(r, 200, json_pack("{s:s}", "id", id));
        }
    }
    store_game_free(&row);
}

/* ---- Actions ------------------------------------------------------------ */

/* Ends the game as the players declared ("0-1 white resigns"): the
 * game's own rules judge the end (van Gog), and the row keeps both. */
static bool declare_end(GameRow *row, Game *g, Outcome o, const char *words)
{
    if (!game_declare(g, o, words)) return false;
    char declared[128];
    snprintf(declared, sizeof declared, "%s %s", result_string(o.result), words);
    set_string(&row->declared, declared);
    return true;
}

/* After any action: is the game over by the rules or a declared end? */
static void settle_row(GameRow *row, const Game *g)
{
    Text result = TEXT_INIT, reason = TEXT_INIT;
    if (play_outcome(g, &result, &reason)) {
        set_string(&row->status, "over");
        set_string(&row->result, text_str(&result));
        set_string(&row->reason, text_str(&reason));
        row->draw_offer = row->takeback_offer = 0;
    }
    text_free(&result);
    text_free(&reason);
}

/* Charges the mover's live clock for the time since the last action and
 * adds the increment.  The flag was judged first (flag_due): the mover
 * has time left. */
static void charge_clock(GameRow *row, int mover, int64_t now)
{
    /* The clocks start with White's first action. */
    if (!row->base_ms || row->ply == 0) return;
    int64_t *left = mover == WHITE ? &row->white_ms : &row->black_ms;
    *left += row->inc_ms - (now - row->last_action_at);
}

/* Has the side to move run out of time by `now`?  The clocks' timer ends
 * the game at that moment; a request that comes a few ms before the timer
 * ends it first (end_on_time), so that nobody acts, offers or accepts
 * after a flag. */
static bool flag_due(const GameRow *row, int64_t now)
{
    int64_t deadline = clock_deadline(row);
    return deadline && now >= deadline;
}

/* Ends the game on time for its side to move: a loss, or a draw when the
 * opponent could not win by any series of legal actions (the library's
 * outcome_on_time); the game's own rules still judge the end (van Gog's
 * obligations).  Fills the "time" event; false only when out of memory. */
static bool end_on_time(GameRow *row, Game *g, char event[2][512])
{
    Color flagged = (Color)row->to_move;
    if (row->base_ms) *(flagged == WHITE ? &row->white_ms : &row->black_ms) = 0;
    Line l;
    line_open(&l, g, game_current(g));
    Outcome o = outcome_on_time(&l, flagged);
    line_close(&l);
    Text words = TEXT_INIT;
    outcome_words(o, NULL, &words);
    bool ok = !words.failed && declare_end(row, g, o, text_str(&words));
    text_free(&words);
    if (!ok) return false;
    settle_row(row, g);
    json_t *d = json_pack("{s:s?, s:s?}", "result", row->result, "reason", row->reason);
    char *dump = d ? json_dumps(d, JSON_COMPACT) : NULL;
    snprintf(event[0], 512, "time");
    snprintf(event[1], 512, "%s", dump ? dump : "{}");
    free(dump);
    json_decref(d);
    return true;
}

/* After a committed action: the clocks' timer learns the game's new
 * deadline (clocks.c), as the engine learns that it may have to move. */
static void wake_clock(Store *s, const GameRow *row, int64_t version)
{
    pthread_mutex_lock(&s->hooks_lock);
    if (s->wake_clock) s->wake_clock(s->clock_ctx, row->id, version, clock_deadline(row));
    pthread_mutex_unlock(&s->hooks_lock);
}

/* One try of api_flag; *again when the row changed while it was read or
 * written (another request, another server's timer): read it again. */
static bool flag_once(Store *s, const char *id, int64_t now, int64_t *version, int64_t *deadline, bool *again)
{
    GameRow row;
    bool found;
    *again = false;
    *deadline = 0;
    if (!store_game_get(s, id, &row, &found)) return false;
    if (!found) return true;
    *version = row.version;
    *deadline = clock_deadline(&row);
    if (!flag_due(&row, now)) {
        store_game_free(&row);
        return true;
    }
    Game g;
    Text err = TEXT_INIT;
    bool ok = cache_take(s->cache, id, row.version, &g) || play_load(s, &row, &g, &err);
    *again = !ok && !strcmp(text_str(&err), PLAY_MOVED_ON);
    text_free(&err);
    char event[2][512] = { "", "{}" };
    bool stale = false, begun = ok && store_begin(s);
    ok = begun && end_on_time(&row, &g, event) && store_game_update(s, &row, &stale) &&
         store_event_add(s, id, event[0], row.ply, event[1]) && store_commit(s);
    if (begun && !ok) store_rollback(s);
    if (ok) {
        events_notify();
        *version = row.version + 1;
        *deadline = 0;
        cache_put(s->cache, id, *version, &g);
    } else {
        *again = *again || stale;
        game_free(&g);
    }
    store_game_free(&row);
    return ok;
}

bool api_flag(Store *s, const char *id, int64_t now, int64_t *version, int64_t *deadline)
{
    bool ok = false, again = true;
    store_enter(s);
    for (int attempt = 0; again && attempt < 4; attempt++) ok = flag_once(s, id, now, version, deadline, &again);
    store_leave(s);
    return ok;
}

/* The action request, once its game is loaded and its ply checked.
 * Writes the row (and the actions table) in the open transaction and
 * fills `event` (type and data) for the live streams; false after an
 * error reply. */
static bool act(Store *s, GameRow *row, Game *g, int mine, const char *action, char event[2][512], ApiReply *r)
{
    int theirs = !mine;
    int64_t now = server_now_ms();
    if (flag_due(row, now)) {
        if (!end_on_time(row, g, event)) return reply_error(r, 500, "out of memory"), false;
        return true;
    }
    if (!strcmp(action, "resign")) {
        char words[32];
        snprintf(words, sizeof words, "%s resigns", mine == WHITE ? "white" : "black");
        Outcome o = outcome_make(result_loss_for((Color)mine), REASON_RESIGNATION, (uint8_t)mine);
        if (!declare_end(row, g, o, words)) return reply_error(r, 500, "out of memory"), false;
        snprintf(event[0], 512, "resign");
    } else if (!strcmp(action, "offer-draw") || !strcmp(action, "offer-takeback")) {
        bool draw = action[6] == 'd';
        if (!draw && row->ply == 0) return reply_error(r, 409, "there is no action to take back"), false;
        *(draw ? &row->draw_offer : &row->takeback_offer) = mine + 1;
        snprintf(event[0], 512, "%s", action);
    } else if (!strcmp(action, "accept-draw")) {
        if (row->draw_offer != theirs + 1) return reply_error(r, 409, "your opponent has not offered a draw"), false;
        if (!declare_end(row, g, outcome_make(RESULT_DRAW, REASON_AGREED_DRAW, SIDE_NONE), "agreed draw"))
            return reply_error(r, 500, "out of memory"), false;
        snprintf(event[0], 512, "accept-draw");
    } else if (!strcmp(action, "accept-takeback")) {
        if (row->takeback_offer != theirs + 1)
            return reply_error(r, 409, "your opponent has not offered to take an action back"), false;
        /* One action is taken back: the last one, whoever made it.  Against
         * the engine, which answers at once, that would only give it its
         * move again; there the take-back goes back to the turn of the
         * player who asked. */
        bool against_engine = row->white == -1 || row->black == -1;
        do {
            if (!store_action_remove_last(s, row->id, row->ply)) return reply_error(r, 503, "the database cannot be written now"), false;
            game_pop(g);
            row->ply--;
        } while (against_engine && row->ply > 0 && game_board(g)->side != theirs);
        row->takeback_offer = row->draw_offer = 0;
        row->to_move = game_board(g)->side;
        snprintf(event[0], 512, "takeback");
    } else if (!strcmp(action, "decline")) {
        if (row->draw_offer != theirs + 1 && row->takeback_offer != theirs + 1)
            return reply_error(r, 409, "there is no offer of your opponent's to decline"), false;
        row->draw_offer = row->takeback_offer = 0;
        snprintf(event[0], 512, "decline");
    } else {
        if (game_board(g)->side != mine) return reply_error(r, 403, "it is not your turn"), false;
        charge_clock(row, mine, now);
        Move m;
        Text coord = TEXT_INIT, human = TEXT_INIT, err = TEXT_INIT;
        bool ok = play_parse(g, action, &m, &coord, &human, &err);
        if (!ok) {
            reply_error(r, 422, text_str(&err));
        } else {
            bool stale;
            if (!store_action_add(s, row->id, row->ply + 1, text_str(&coord), text_str(&human), now, &stale)) {
                reply_error(r, stale ? 409 : 503, stale ? "that ply has been played already" : "the database cannot be written now");
                ok = false;
            } else if (!game_push(g, m)) {
                reply_error(r, 500, "out of memory");
                ok = false;
            } else {
                row->ply++;
                row->last_action_at = now;
                row->draw_offer = row->takeback_offer = 0;
                row->to_move = game_board(g)->side;
                snprintf(event[0], 512, "action");
                json_t *d = json_pack("{s:s, s:s}", "coord", text_str(&coord), "human", text_str(&human));
                char *dump = d ? json_dumps(d, JSON_COMPACT) : NULL;
                snprintf(event[1], 512, "%s", dump ? dump : "{}");
                free(dump);
                json_decref(d);
            }
        }
        text_free(&coord);
        text_free(&human);
        text_free(&err);
        if (!ok) return false;
    }
    settle_row(row, g);
    return true;
}

/* Why a game that is not active takes no action, in a player's words. */
static const char *not_in_play(const char *status)
{
    if (!strcmp(status, "over")) return "the game is over";
    if (!strcmp(status, "challenge")) return "the challenge has not been accepted yet";
    if (!strcmp(status, "declined")) return "the challenge was declined or withdrawn";
    return "the game waits for an opponent";
}

/* The short answer to an action, for a client that follows the game by
 * its events or plays it with its own copy of the rules (a program, the
 * load test): the state's lines that an action changes, without the
 * legal actions and positions that make the full state costly to write. */
static json_t *brief_state(const GameRow *row)
{
    return json_pack("{s:s, s:i, s:s, s:s, s:s?, s:s?}", "id", row->id, "ply", row->ply, "to_move",
                     row->to_move == WHITE ? "white" : "black", "status", row->status, "result", row->result, "reason",
                     row->reason);
}

static void api_action(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to play");
        return;
    }
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *action = member_string(body, "action");
    json_t *ply = json_object_get(body, "ply");
    const char *reply = member_string(body, "reply");
    bool brief = reply && !strcmp(reply, "brief");
    GameRow row;
    Game g;
    if (!action || !json_is_integer(ply)) {
        reply_error(r, 400, "give {\"action\": text, \"ply\": the game's current ply}");
    } else if (strlen(action) > SERVER_MAX_ACTION) {
        reply_error(r, 400, "an action is at most 200 characters");
    } else if (load_game(s, id, &row, &g, r)) {
        int mine = row.white == req->user ? WHITE : row.black == req->user ? BLACK : -1;
        char event[2][512] = { "", "{}" };
        bool stale = false;
        /* The version the game will be kept under: unchanged when the
         * request is refused before anything was tried, one more after a
         * commit; after a failed try, the game is not kept. */
        int64_t keep = row.version;
        if (mine < 0) {
            reply_error(r, 403, "you are not a player of this game");
        } else if (json_integer_value(ply) != row.ply) {
            reply_error(r, 409, "the game has moved on: reload it (the ply you sent is not the current one)");
        } else if (strcmp(row.status, "active")) {
            reply_error(r, 409, not_in_play(row.status));
        } else if (!store_begin(s)) {
            reply_error(r, 503, "the database cannot be written now");
        } else if (keep = -1, !act(s, &row, &g, mine, action, event, r)) {
            store_rollback(s);
        } else if (!store_game_update(s, &row, &stale) || !store_event_add(s, id, event[0], row.ply, event[1]) ||
                   !store_commit(s)) {
            store_rollback(s);
            if (stale) reply_error(r, 409, "the game has moved on: reload it (it changed while your action was checked)");
            else reply_error(r, 503, "the database cannot be written now");
        } else {
            events_notify();
            wake_engine(s, &row);
            wake_clock(s, &row, row.version + 1);
            reply_json(r, 200, brief ? brief_state(&row) : play_state(&row, &g, req->user));
            keep = row.version + 1;
        }
        if (keep >= 0) cache_put(s->cache, id, keep, &g);
        else game_free(&g);
        store_game_free(&row);
    }
    json_decref(body);
}

/* ---- Kibitz, records, lists --------------------------------------------------- */

/* Kibitz is rate-limited per player (docs/api.md, "Limits"), over all
 * games, so that one player cannot flood every spectator's page. */
static bool kibitz_allowed(Store *s, int64_t user, ApiReply *r)
{
    int64_t n = store_kibitz_count_since(s, user, server_now_ms() - SERVER_KIBITZ_WINDOW_S * 1000LL);
    if (n < 0) return reply_error(r, 503, "the database cannot be read now"), false;
    if (n < SERVER_KIBITZ_BURST) return true;
    char why[128];
    snprintf(why, sizeof why, "at most %d comments in %d seconds: wait a little", SERVER_KIBITZ_BURST,
             SERVER_KIBITZ_WINDOW_S);
    reply_error(r, 429, why);
    return false;
}

static void api_kibitz(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    GameRow row;
    if (!strcmp(req->method, "GET")) {
        if (!load_row(s, id, &row, r)) return;
        json_t *list = json_array();
        if (list && store_kibitz_list(s, id, list)) reply_json(r, 200, json_pack("{s:o}", "kibitz", list));
        else reply_error(r, 503, "the database cannot be read now"), json_decref(list);
        store_game_free(&row);
        return;
    }
    if (!req->user) {
        reply_error(r, 401, "log in to kibitz");
        return;
    }
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *text = member_string(body, "text");
    json_t *enabled = json_object_get(body, "enabled");
    if (load_row(s, id, &row, r)) {
        bool player = row.white == req->user || row.black == req->user;
        bool over = !strcmp(row.status, "over");
        if (json_is_boolean(enabled)) {
            /* A player may switch kibitzing off for the game until it ends. */
            if (!player) reply_error(r, 403, "only the players may switch kibitzing");
            else if (over) reply_error(r, 409, "the game is over: kibitzing is open to all");
            else {
                row.kibitz = json_is_true(enabled);
                bool stale = false;
                if (!store_begin(s)) {
                    reply_error(r, 503, "the database cannot be written now");
                } else if (!store_game_update(s, &row, &stale) ||
                           !store_event_add(s, id, "kibitz-switch", row.ply,
                                            row.kibitz ? "{\"enabled\":true}" : "{\"enabled\":false}") ||
                           !store_commit(s)) {
                    store_rollback(s);
                    if (stale) reply_error(r, 409, "the game has moved on: reload it");
                    else reply_error(r, 503, "the database cannot be written now");
                } else
                    events_notify(), reply_json(r, 200, json_pack("{s:b}", "enabled", row.kibitz));
            }
        } else if (!text || !*text) {
            reply_error(r, 400, "give {\"text\": your comment}");
        } else if (strlen(text) > SERVER_MAX_KIBITZ) {
            reply_error(r, 400, "a comment is at most 500 bytes");
        } else if (!row.kibitz && !over) {
            reply_error(r, 403, "the players have switched kibitzing off until the game ends");
        } else {
            /* The rate is counted in the transaction that writes the
             * comment, with the player's row locked: comments sent
             * together cannot pass the limit. */
            json_t *d = json_pack("{s:s, s:s}", "name", req->user_name, "text", text);
            char *dump = d ? json_dumps(d, JSON_COMPACT) : NULL;
            if (!dump || !store_begin(s)) {
                reply_error(r, 503, "the database cannot be written now");
            } else if (!store_lock_user(s, req->user)) {
                store_rollback(s);
                reply_error(r, 503, "the database cannot be written now");
            } else if (!kibitz_allowed(s, req->user, r)) {
                store_rollback(s);
            } else if (!store_kibitz_add(s, id, req->user, text, server_now_ms()) ||
                       !store_event_add(s, id, "kibitz", row.ply, dump) || !store_commit(s)) {
                store_rollback(s);
                reply_error(r, 503, "the database cannot be written now");
            } else {
                events_notify();
                reply_json(r, 201, json_pack("{s:b}", "ok", 1));
            }
            free(dump);
            json_decref(d);
        }
        store_game_free(&row);
    }
    json_decref(body);
}

static void api_record(Store *s, const char *id, bool pgn, ApiReply *r)
{
    GameRow row;
    Game g;
    if (!load_game(s, id, &row, &g, r)) return;
    Text out = TEXT_INIT;
    bool ok;
    if (pgn) {
        PgnHeader h;
        pgn_header_init(&h);
        ok = pgn_set_tag(&h, "Event", "ttchess game") && pgn_set_tag(&h, "Site", id) &&
             pgn_set_tag(&h, "White", row.white == -1 ? "ttchess engine" : row.white_name ? row.white_name : "?") &&
             pgn_set_tag(&h, "Black", row.black == -1 ? "ttchess engine" : row.black_name ? row.black_name : "?") &&
             pgn_write(&g, &h, &out);
        pgn_header_free(&h);
    } else {
        ok = sheets_write(&g, &out);
    }
    if (ok) reply_text(r, 200, pgn ? "application/vnd.chess-pgn; charset=utf-8" : "text/plain; charset=utf-8",
                       text_take(&out));
    else reply_error(r, 500, "out of memory");
    text_free(&out);
    cache_put(s->cache, id, row.version, &g);
    store_game_free(&row);
}

/* The board at one position of the game as an SVG picture, styled by the
 * query as the game page is (docs/api.md): ?ply= picks the node (default
 * the present one), orientation, set, colors, size and coordinates the
 * style; each bad value is refused with the values allowed. */
static void api_diagram(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    static const char *const STYLE_FIELDS[] = { "orientation", "set", "colors", "size", "coordinates" };
    DiagramStyle style;
    diagram_style_default(&style);
    Text err = TEXT_INIT;
    for (size_t i = 0; i < sizeof STYLE_FIELDS / sizeof STYLE_FIELDS[0]; i++) {
        const char *value = req->query ? req->query(req->query_ctx, STYLE_FIELDS[i]) : NULL;
        if (value && !diagram_style_set(&style, STYLE_FIELDS[i], value, &err)) {
            reply_error(r, 400, text_str(&err));
            text_free(&err);
            return;
        }
    }
    GameRow row;
    Game g;
    if (!load_game(s, id, &row, &g, r)) return;
    const char *ply_text = req->query ? req->query(req->query_ctx, "ply") : NULL;
    long ply = game_current(&g);
    char *end = NULL;
    if (ply_text) ply = strtol(ply_text, &end, 10);
    if (ply_text && (!*ply_text || *end || ply < 0 || ply > game_current(&g))) {
        text_addf(&err, "ply is a whole number from 0 to %d (the game's positions)", game_current(&g));
        reply_error(r, 400, text_str(&err));
    } else {
        const Node *n = game_node(&g, (int)ply);
        char caption[96];
        snprintf(caption, sizeof caption, "ply %ld, move %d, timeline %d", ply, n->state->board.fullmove,
                 n->timeline);
        Text svg = TEXT_INIT;
        if (diagram_svg(g.variant, &g.options, n->state, &style, caption, &svg))
            reply_text(r, 200, "image/svg+xml; charset=utf-8", text_take(&svg));
        else
            reply_error(r, 500, "out of memory");
        text_free(&svg);
    }
    text_free(&err);
    cache_put(s->cache, id, row.version, &g);
    store_game_free(&row);
}

static void api_my_games(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to see your games");
        return;
    }
    json_t *list = json_array(), *challenges = json_array();
    if (list && challenges && store_games_of(s, req->user, list) && store_challenges_of(s, req->user, challenges))
        reply_json(r, 200, json_pack("{s:s, s:o, s:o}", "name", req->user_name, "games", list, "challenges", challenges));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(list), json_decref(challenges);
}

/* ---- Personal API tokens and the block list ----------------------------------- */

/* Tokens are how scripts and bots use the API (docs/api.md, "Tokens"): a
 * token is shown once, when made, and kept only as its hash.  A token is
 * made from a browser session, never by another token, so that a leaked
 * token cannot mint more. */
static void api_token_create(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to make an API token");
    if (req->by_token) return reply_error(r, 403, "API tokens are made from your account page, not with another token");
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *label = member_string(body, "label");
    if (!label || !*label || characters(label) > SERVER_MAX_NAME) {
        reply_error(r, 400, "give the token a label of 1 to 32 characters (what it is for)");
        json_decref(body);
        return;
    }
    char token[2 * SERVER_TOKEN_BYTES + 1], hash[65];
    auth_new_token(token);
    auth_token_hash(token, hash);
    int64_t id;
    if (!store_begin(s) || !store_lock_user(s, req->user)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
    } else if (!under_limit(store_tokens_count(s, req->user), SERVER_MAX_TOKENS,
                            "you hold %d API tokens, the most a player may: revoke one first", r)) {
        store_rollback(s);
    } else if (!store_token_add(s, req->user, hash, label, &id) || !store_commit(s)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
    } else {
        reply_json(r, 201, json_pack("{s:I, s:s, s:s, s:I}", "id", (json_int_t)id, "label", label, "token", token,
                                     "created", (json_int_t)server_now_ms()));
    }
    json_decref(body);
}

static void api_tokens(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to see your API tokens");
    json_t *list = json_array();
    if (list && store_tokens_of(s, req->user, list)) reply_json(r, 200, json_pack("{s:o}", "tokens", list));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(list);
}

static void api_token_revoke(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to revoke an API token");
    char *end;
    long long n = strtoll(id, &end, 10);
    bool found = false;
    if (*end || n <= 0) reply_error(r, 404, "no such API token");
    else if (!store_token_remove(s, req->user, n, &found)) reply_error(r, 503, "the database cannot be written now");
    else if (!found) reply_error(r, 404, "no such API token");
    else reply_json(r, 200, json_pack("{s:b}", "revoked", 1));
}

static void api_blocks(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to see whom you block");
    json_t *list = json_array();
    if (list && store_blocks_of(s, req->user, list)) reply_json(r, 200, json_pack("{s:o}", "blocked", list));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(list);
}

/* Blocking a player refuses their challenges from then on; games already
 * accepted go on. */
static void api_block(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to block a player");
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *name = member_string(body, "name");
    int64_t them;
    if (!name || !store_user_id(s, name, &them)) reply_error(r, 404, "no player of that name");
    else if (them == req->user) reply_error(r, 400, "you cannot block yourself");
    else if (!store_block_add(s, req->user, them)) reply_error(r, 503, "the database cannot be written now");
    else reply_json(r, 201, json_pack("{s:s}", "blocked", name));
    json_decref(body);
}

static void api_unblock(Store *s, const ApiRequest *req, const char *name, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to unblock a player");
    int64_t them;
    bool found = false;
    if (!store_user_id(s, name, &them)) reply_error(r, 404, "no player of that name");
    else if (!store_block_remove(s, req->user, them, &found)) reply_error(r, 503, "the database cannot be written now");
    else if (!found) reply_error(r, 404, "you do not block this player");
    else reply_json(r, 200, json_pack("{s:s}", "unblocked", name));
}

/* Who is logged in: a page asks this first, so that a visitor is told
 * apart from a player without a refused request. */
static void api_session(const ApiRequest *req, ApiReply *r)
{
    reply_json(r, 200, json_pack("{s:s?}", "name", req->user ? req->user_name : NULL));
}

static void api_variants(ApiReply *r)
{
    json_t *list = json_array();
    for (int i = 0; list && VARIANTS[i]; i++) {
        const Variant *v = VARIANTS[i];
        Options o;
        options_default(v, &o);
        Text opts = TEXT_INIT;
        options_format(v, &o, true, &opts);
        json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:s}", "name", v->name, "title", v->title, "options",
                                              text_str(&opts), "start_fen", v->start_fen));
        text_free(&opts);
    }
    reply_json(r, 200, json_pack("{s:o}", "variants", list));
}

void api_handle(Store *s, const ApiRequest *req, ApiReply *r)
{
    memset(r, 0, sizeof *r);
    char seg[2][64];
    bool get = !strcmp(req->method, "GET"), post = !strcmp(req->method, "POST"), del = !strcmp(req->method, "DELETE");
    if (post && route(req->path, "/api/register", seg)) api_register(s, req, r);
    else if (post && route(req->path, "/api/login", seg)) api_login(s, req, r);
    else if (post && route(req->path, "/api/logout", seg)) api_logout(s, req, r);
    else if (get && route(req->path, "/api/session", seg)) api_session(req, r);
    else if (get && route(req->path, "/api/variants", seg)) api_variants(r);
    else if (get && route(req->path, "/api/games", seg)) api_my_games(s, req, r);
    else if (post && route(req->path, "/api/games", seg)) api_create_game(s, req, r);
    else if (get && route(req->path, "/api/games/*", seg)) api_get_game(s, req, seg[0], r);
    else if (post && route(req->path, "/api/games/*/join", seg)) api_join(s, req, seg[0], r);
    else if (post && route(req->path, "/api/games/*/accept", seg)) api_answer_challenge(s, req, seg[0], true, r);
    else if (post && route(req->path, "/api/games/*/decline", seg)) api_answer_challenge(s, req, seg[0], false, r);
    else if (get && route(req->path, "/api/tokens", seg)) api_tokens(s, req, r);
    else if (post && route(req->path, "/api/tokens", seg)) api_token_create(s, req, r);
    else if (del && route(req->path, "/api/tokens/*", seg)) api_token_revoke(s, req, seg[0], r);
    else if (get && route(req->path, "/api/blocks", seg)) api_blocks(s, req, r);
    else if (post && route(req->path, "/api/blocks", seg)) api_block(s, req, r);
    else if (del && route(req->path, "/api/blocks/*", seg)) api_unblock(s, req, seg[0], r);
    else if (post && route(req->path, "/api/games/*/actions", seg)) api_action(s, req, seg[0], r);
    else if ((get || post) && route(req->path, "/api/games/*/kibitz", seg)) api_kibitz(s, req, seg[0], r);
    else if (get && route(req->path, "/api/games/*/pgn", seg)) api_record(s, seg[0], true, r);
    else if (get && route(req->path, "/api/games/*/sheets", seg)) api_record(s, seg[0], false, r);
    else if (get && route(req->path, "/api/games/*/diagram.svg", seg)) api_diagram(s, req, seg[0], r);
    else reply_error(r, get || post || del ? 404 : 405, get || post || del ? "no such API" : "only GET, POST and DELETE");
}
