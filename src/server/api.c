/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The handlers of docs/api.md: the router, and what the handlers share
 * (replies, the reading of a request, a game loaded, the limits); the
 * handlers themselves are in the files api_internal.h lists.
 *
 * They run in parallel, each on the connections of the store's pool
 * (store.c), inside one transaction when it writes, and commit before
 * they reply: an action the player sees acknowledged is on disk.  A write
 * based on a game's row that has since changed (a concurrent request,
 * here or on another server) fails as stale and is answered 409.
 *
 * Status codes: 400 a malformed request, 401 not logged in, 403 not
 * allowed (not a player, not your turn), 404 no such game, 409 a stale
 * ply or a game not in play, 413 too large (http.c), 422 an illegal
 * action (with the rule's sentence), 429 too many login attempts, 500 the
 * server's own failure, 503 the database cannot be written.
 */
#include "api_internal.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

/* ---- Replies ------------------------------------------------------------ */

void reply_json(ApiReply *r, int status, json_t *body)
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
void reply_error(ApiReply *r, int status, const char *message)
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

void reply_text(ApiReply *r, int status, const char *type, char *text)
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
    free(r->disposition);
    if (r->stream_free) r->stream_free(r->stream_ctx);
    memset(r, 0, sizeof *r);
}

/* ---- Reading requests ----------------------------------------------------- */

/* The body as a JSON object, or NULL after a 400 reply. */
json_t *body_object(const ApiRequest *req, ApiReply *r)
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
const char *member_string(json_t *o, const char *name)
{
    json_t *v = json_object_get(o, name);
    return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Is the query's switch `name` on ("1")? */
static bool query_switch(const ApiRequest *req, const char *name)
{
    const char *value = req->query ? req->query(req->query_ctx, name) : NULL;
    return value && !strcmp(value, "1");
}

unsigned state_parts(const ApiRequest *req)
{
    return (query_switch(req, "legal") ? STATE_LEGAL : 0) | (query_switch(req, "nodes") ? STATE_NODES : 0) |
           (query_switch(req, "what") ? STATE_WHAT : 0);
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

/* ---- Shared by the handlers ---------------------------------------------- */

void set_string(char **field, const char *value)
{
    free(*field);
    *field = value ? strdup(value) : NULL;
}

/* Loads a game's row, or replies 404 (or 503). */
bool load_row(Store *s, const char *id, GameRow *row, ApiReply *r)
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
 * this version of it, else brought up to date or replayed (play_restore).  A take-back committed between the
 * reading of the row and of its actions gives a reading to make again. */
bool load_game(Store *s, const char *id, GameRow *row, Game *g, ApiReply *r)
{
    for (int attempt = 0;; attempt++) {
        if (!load_row(s, id, row, r)) return false;
        Text err = TEXT_INIT;
        bool ok = play_restore(s, row, g, &err);
        bool again = !ok && !strcmp(text_str(&err), PLAY_MOVED_ON) && attempt < 3;
        if (!ok && !again) reply_error(r, 500, text_str(&err));
        text_free(&err);
        if (ok) return true;
        store_game_free(row);
        game_free(g);
        if (!again) return false;
    }
}

/* After a committed change to a game with the engine in a seat: the
 * engine looks whether it must move or answer an offer (opponent.c). */
void wake_engine(Store *s, const GameRow *row)
{
    if ((row->white != -1 && row->black != -1) || !strcmp(row->status, "over")) return;
    pthread_mutex_lock(&s->hooks_lock);
    if (s->wake_engine) s->wake_engine(s->wake_ctx, row->id);
    pthread_mutex_unlock(&s->hooks_lock);
}

/* A player's count of something against its limit: true while under it;
 * else 429 with the sentence (whose %d is the limit), or 503 when the
 * count could not be read (-1). */
bool under_limit(int64_t count, int limit, const char *sentence, ApiReply *r)
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
bool under_game_limit(Store *s, int64_t user, ApiReply *r)
{
    return under_limit(store_games_unfinished(s, user), SERVER_MAX_UNFINISHED_GAMES,
                       "you have %d games waiting or in play, the most a player may have: finish some first", r);
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
    bool put = !strcmp(req->method, "PUT");
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
    else if (get && route(req->path, "/api/games/*/pgn", seg)) api_pgn(s, req, seg[0], r);
    else if (get && route(req->path, "/api/games/*/sheets", seg)) api_record(s, seg[0], false, r);
    else if (get && route(req->path, "/api/games/*/gc", seg)) api_gc(s, seg[0], r);
    else if (get && route(req->path, "/api/games/*/diagram.svg", seg)) api_diagram(s, req, seg[0], r);
    else if ((get || post) && route(req->path, "/api/games/*/rematch", seg)) api_rematch(s, req, seg[0], NULL, r);
    else if (post && route(req->path, "/api/games/*/rematch/*", seg)) api_rematch(s, req, seg[0], seg[1], r);
    else if (get && route(req->path, "/api/lobby", seg)) api_lobby(s, r);
    else if (post && route(req->path, "/api/seeks", seg)) api_seek_create(s, req, r);
    else if (post && route(req->path, "/api/seeks/*/accept", seg)) api_seek_accept(s, req, seg[0], r);
    else if (del && route(req->path, "/api/seeks/*", seg)) api_seek_withdraw(s, req, seg[0], r);
    else if (get && route(req->path, "/api/users/*/games", seg)) api_user_games(s, req, seg[0], r);
    else if (get && route(req->path, "/api/users/*/games.pgn", seg)) api_user_pgn(s, req, seg[0], r);
    else if (get && route(req->path, "/api/users/*/current", seg)) api_user_current(s, req, seg[0], r);
    else if (get && route(req->path, "/api/users/*/stats", seg)) api_user_stats(s, req, seg[0], r);
    else if (del && route(req->path, "/api/account", seg)) api_account_delete(s, req, r);
    else if (get && route(req->path, "/api/users/*", seg)) api_user(s, seg[0], r);
    else if (get && route(req->path, "/api/users/*/rating-history", seg)) api_rating_history(s, req, seg[0], r);
    else if (get && route(req->path, "/api/leaderboard/*/*", seg)) api_leaderboard(s, req, seg[0], seg[1], r);
    else if (get && route(req->path, "/api/tournaments", seg)) api_tournaments(s, r);
    else if (post && route(req->path, "/api/tournaments", seg)) api_tournament_create(s, req, r);
    else if (get && route(req->path, "/api/tournaments/*", seg)) api_tournament_get(s, req, seg[0], r);
    else if (post && route(req->path, "/api/tournaments/*/join", seg)) api_tournament_enter(s, req, seg[0], true, r);
    else if (post && route(req->path, "/api/tournaments/*/withdraw", seg)) api_tournament_enter(s, req, seg[0], false, r);
    else if (get && route(req->path, "/api/account/email", seg)) api_email(s, req, r);
    else if (put && route(req->path, "/api/account/email", seg)) api_email_set(s, req, r);
    else if ((get || post) && route(req->path, "/api/account/email/confirm", seg)) api_email_confirm(s, req, get, r);
    else if (put && route(req->path, "/api/account/notify", seg)) api_notify_set(s, req, r);
    else if (get && route(req->path, "/api/account/yourmove", seg)) api_your_move(s, req, r);
    else reply_error(r, get || post || del ? 404 : 405, get || post || del ? "no such API" : "only GET, POST and DELETE");
}
