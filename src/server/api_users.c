/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Players' pages and the archive (docs/api.md, "Players and the
 * archive"): a player's finished games as NDJSON, one JSON object a line
 * as lichess's export API gives them, with filters; their games in play;
 * their counts per variant; all their finished games as one PGN file,
 * streamed; and the deletion of one's own account.
 *
 * The PGN export is made while it is sent: a page of games is read (the
 * database's connection taken and given back), written out as PGN, and
 * only then handed to the client, so that a reader as slow as it likes
 * holds a thread and a page of text but never a connection of the pool.
 */
#include "api_internal.h"
#include "gc.h"
#include "registry.h"
#include "ratings.h"
#include "store_users.h"

#include <ctype.h>
#include <pthread.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- Reading the request ------------------------------------------------- */

/* The player the path names, or a 404 (or 503) reply.  A name that could
 * not be registered is no player's, and is not looked up. */
static bool find_player(Store *s, const char *name, Player *p, ApiReply *r)
{
    size_t n = strlen(name);
    bool well_formed = n >= 1 && n <= SERVER_MAX_NAME;
    for (size_t i = 0; well_formed && i < n; i++)
        well_formed = isalnum((unsigned char)name[i]) || name[i] == '_' || name[i] == '-';
    bool found = false;
    if (well_formed && !store_player(s, name, p, &found)) return reply_error(r, 503, "the database cannot be read now"), false;
    if (!found) reply_error(r, 404, "no such player");
    return found;
}

static const char *query_arg(const ApiRequest *req, const char *name)
{
    return req->query ? req->query(req->query_ctx, name) : NULL;
}

/* A whole number of at most 15 digits in lo..hi from a query argument;
 * false when it is anything else. */
static bool query_number(const char *text, int64_t lo, int64_t hi, int64_t *out)
{
    size_t n = text ? strlen(text) : 0;
    if (n == 0 || n > 15 || strspn(text, "0123456789") != n) return false;
    *out = strtoll(text, NULL, 10);
    return *out >= lo && *out <= hi;
}

/* The filters of GET /api/users/NAME/games from a query (`query` gives an
 * argument's value or NULL), the opponent's name apart; false with the
 * reason in why. */
static bool parse_filter(const char *(*query)(void *ctx, const char *name), void *ctx, GameFilter *f,
                         const char **opponent, char *why, size_t size)
{
    *f = (GameFilter){ .status = "over", .variant = "", .result = "", .after_id = "", .max = SERVER_GAMES_LISTED };
    const char *variant = query(ctx, "variant"), *result = query(ctx, "result"), *max = query(ctx, "max");
    const char *until = query(ctx, "until"), *rated = query(ctx, "rated");
    *opponent = query(ctx, "opponent");
    int64_t number;
    if (variant && *variant) {
        const Variant *v = variant_find(variant);
        if (!v) return snprintf(why, size, "no variant is named '%.40s' (GET /api/variants lists them)", variant), false;
        f->variant = v->name;
    }
    if (result && *result) {
        if (strcmp(result, "won") && strcmp(result, "drawn") && strcmp(result, "lost"))
            return snprintf(why, size, "result is won, drawn or lost"), false;
        f->result = result;
    }
    if (max && !query_number(max, 1, SERVER_MAX_GAMES_LISTED, &number))
        return snprintf(why, size, "max is a whole number from 1 to %d", SERVER_MAX_GAMES_LISTED), false;
    if (max) f->max = (int)number;
    if (until && !query_number(until, 1, INT64_C(999999999999999), &number))
        return snprintf(why, size, "until is a time in milliseconds since 1970 (a whole number)"), false;
    if (until) f->until = number;
    if (rated && *rated) {
        if (strcmp(rated, "true") && strcmp(rated, "false"))
            return snprintf(why, size, "rated is true (rated games) or false (casual games)"), false;
        f->rated = !strcmp(rated, "true") ? GAMES_RATED : GAMES_CASUAL;
    }
    if (*opponent && !**opponent) *opponent = NULL;
    return true;
}

static const char *request_query(void *ctx, const char *name)
{
    const ApiRequest *req = ctx;
    return query_arg(req, name);
}

/* The filter of the request's query, the opponent looked up; false after
 * a 400 (or 503) reply. */
static bool read_filter(Store *s, const ApiRequest *req, const Player *p, GameFilter *f, ApiReply *r)
{
    const char *opponent;
    char why[160];
    if (!parse_filter(request_query, (void *)req, f, &opponent, why, sizeof why))
        return reply_error(r, 400, why), false;
    if (!opponent) return true;
    Player other;
    bool found = false;
    if (!store_player(s, opponent, &other, &found)) return reply_error(r, 503, "the database cannot be read now"), false;
    if (!found || other.id == p->id)
        return reply_error(r, 400, "opponent is the name of another player (no player has that one)"), false;
    f->opponent = other.id;
    return true;
}

/* ---- A game as the listings give it ---------------------------------------- */

static json_t *seat(const GameRow *g, int64_t who, const char *name)
{
    if (who == -1) return json_pack("{s:s, s:i}", "name", "ttchess engine", "engine_level", g->engine_level);
    return json_pack("{s:s?}", "name", name);
}

/* One game, as lichess's export has it (players, plies, speed...). */
static json_t *game_summary(const PlayerGame *pg)
{
    const GameRow *g = &pg->row;
    const char *winner = !g->result ? NULL : !strcmp(g->result, "1-0") ? "white" : !strcmp(g->result, "0-1") ? "black" : NULL;
    return json_pack("{s:s, s:s, s:s, s:s, s:b, s:I, s:I, s:i, s:{s:o, s:o}, s:s?, s:s?, s:s?}", "id", g->id, "variant",
                     g->variant, "status", g->status, "speed", ratings_speed(g), "rated", g->rated > 0, "created",
                     (json_int_t)pg->created, "last_action_at", (json_int_t)g->last_action_at, "plies", g->ply,
                     "players", "white", seat(g, g->white, g->white_name), "black", seat(g, g->black, g->black_name),
                     "result", g->result, "reason", g->reason, "winner", winner);
}

/* ---- The handlers ---------------------------------------------------------- */

void api_user_games(Store *s, const ApiRequest *req, const char *name, ApiReply *r)
{
    Player p;
    GameFilter f;
    if (!find_player(s, name, &p, r) || !read_filter(s, req, &p, &f, r)) return;
    PlayerGame *games;
    int count;
    if (!store_player_games(s, p.id, &f, &games, &count)) return reply_error(r, 503, "the database cannot be read now");
    Text out = TEXT_INIT;
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        json_t *o = game_summary(&games[i]);
        char *line = o ? json_dumps(o, JSON_COMPACT) : NULL;
        ok = line != NULL;
        if (ok) text_addf(&out, "%s\n", line);
        free(line);
        json_decref(o);
    }
    store_player_games_free(games, count);
    if (ok) reply_text(r, 200, "application/x-ndjson; charset=utf-8", text_take(&out));
    else reply_error(r, 500, "out of memory");
    text_free(&out);
}

void api_user_current(Store *s, const ApiRequest *req, const char *name, ApiReply *r)
{
    (void)req;
    Player p;
    if (!find_player(s, name, &p, r)) return;
    GameFilter f = { .status = "active", .variant = "", .result = "", .after_id = "", .max = SERVER_MAX_UNFINISHED_GAMES };
    PlayerGame *games;
    int count;
    if (!store_player_games(s, p.id, &f, &games, &count)) return reply_error(r, 503, "the database cannot be read now");
    json_t *list = json_array();
    for (int i = 0; list && i < count; i++) json_array_append_new(list, game_summary(&games[i]));
    store_player_games_free(games, count);
    reply_json(r, 200, list ? json_pack("{s:s, s:I, s:o}", "name", p.name, "created", (json_int_t)p.created, "games", list) : NULL);
}

void api_user_stats(Store *s, const ApiRequest *req, const char *name, ApiReply *r)
{
    (void)req;
    Player p;
    if (!find_player(s, name, &p, r)) return;
    json_t *stats = json_object();
    if (stats && store_player_stats(s, p.id, stats)) reply_json(r, 200, stats);
    else reply_error(r, stats ? 503 : 500, stats ? "the database cannot be read now" : "out of memory"), json_decref(stats);
}

/* ---- A game's Game Courier log ------------------------------------------------ */

/* GET /api/games/ID/gc: the game's record as a Game Courier move log
 * ('ttchess export --gc'), the third of a finished game's downloads
 * beside its PGN and score sheets. */
void api_gc(Store *s, const char *id, ApiReply *r)
{
    GameRow row;
    Game g;
    if (!load_game(s, id, &row, &g, r)) return;
    Text out = TEXT_INIT;
    if (gc_write(&g, &out)) {
        reply_text(r, 200, "text/plain; charset=utf-8", text_take(&out));
        char disposition[128];
        /* The id is letters and digits only (store.c makes it). */
        snprintf(disposition, sizeof disposition, "inline; filename=\"ttchess-%s.gc.txt\"", id);
        r->disposition = strdup(disposition);
    } else {
        reply_error(r, 500, "out of memory");
    }
    text_free(&out);
    cache_put(s->cache, id, row.version, &g);
    store_game_free(&row);
}

/* ---- The PGN export ---------------------------------------------------------- */

/* Games read at a time: enough that the queries cost little beside the
 * games' replays, few enough that a page of PGN is some hundreds of KiB. */
enum { PGN_PAGE = 25 };

typedef struct PgnExport {
    Store *store;
    int64_t user;
    char site[256];             /* the origin for the Site tags, or ""       */
    GameFilter filter;          /* its until and after_id: the last game sent */
    char after_id[64];
    Text pending;               /* PGN not yet taken by the client           */
    size_t sent;
    bool last_page;
} PgnExport;

/* Pages being made at once, by all exports together: each keeps a core
 * and the pool's connections busy while it replays its games, and fifty
 * downloads at once would otherwise leave every other request waiting
 * for a connection.  A download waiting here holds no connection. */
static pthread_mutex_t pages_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pages_free = PTHREAD_COND_INITIALIZER;
static int pages_made;

static void page_slot_take(void)
{
    pthread_mutex_lock(&pages_lock);
    while (pages_made >= SERVER_EXPORT_PAGES) pthread_cond_wait(&pages_free, &pages_lock);
    pages_made++;
    pthread_mutex_unlock(&pages_lock);
}

static void page_slot_give(void)
{
    pthread_mutex_lock(&pages_lock);
    pages_made--;
    pthread_cond_signal(&pages_free);
    pthread_mutex_unlock(&pages_lock);
}

/* The next page of games as PGN into ex->pending; false on an error. */
static bool export_page(PgnExport *ex)
{
    PlayerGame *games;
    int count;
    if (!store_player_games(ex->store, ex->user, &ex->filter, &games, &count)) return false;
    ex->last_page = count < ex->filter.max;
    bool ok = true;
    for (int i = 0; ok && i < count; i++) {
        Game g;
        Text err = TEXT_INIT;
        int status;
        ok = play_load(ex->store, &games[i].row, &g, &err);
        text_free(&err);
        if (!ok) break;
        ok = game_pgn(ex->store, ex->site, &games[i].row, &g, &ex->pending, &status);
        text_add(&ex->pending, "\n");
        game_free(&g);
    }
    if (ok && count) {
        snprintf(ex->after_id, sizeof ex->after_id, "%s", games[count - 1].row.id);
        ex->filter.until = games[count - 1].created;
        ex->filter.after_id = ex->after_id;
    }
    store_player_games_free(games, count);
    return ok;
}

static long export_read(void *ctx, char *buf, size_t max)
{
    PgnExport *ex = ctx;
    while (ex->sent == ex->pending.len) {
        if (ex->last_page) return 0;
        text_clear(&ex->pending);
        ex->sent = 0;
        page_slot_take();
        bool made = export_page(ex);
        page_slot_give();
        if (!made) return -1;
    }
    size_t n = ex->pending.len - ex->sent;
    if (n > max) n = max;
    memcpy(buf, ex->pending.str + ex->sent, n);
    ex->sent += n;
    return (long)n;
}

static void export_free(void *ctx)
{
    PgnExport *ex = ctx;
    text_free(&ex->pending);
    free(ex);
}

void api_user_pgn(Store *s, const ApiRequest *req, const char *name, ApiReply *r)
{
    Player p;
    if (!find_player(s, name, &p, r)) return;
    PgnExport *ex = calloc(1, sizeof *ex);
    char *disposition = malloc(128);
    if (!ex || !disposition) {
        free(ex);
        free(disposition);
        return reply_error(r, 500, "out of memory");
    }
    *ex = (PgnExport){ .store = s, .user = p.id, .pending = TEXT_INIT };
    snprintf(ex->site, sizeof ex->site, "%s", req->site ? req->site : "");
    ex->filter = (GameFilter){ .status = "over", .variant = "", .result = "", .after_id = "", .max = PGN_PAGE };
    /* The name is letters, digits, '_' and '-' (find_player), safe in a
     * quoted file name. */
    snprintf(disposition, 128, "attachment; filename=\"ttchess-%s.pgn\"", p.name);
    r->status = 200;
    r->content_type = "application/vnd.chess-pgn; charset=utf-8";
    r->disposition = disposition;
    r->stream_read = export_read;
    r->stream_free = export_free;
    r->stream_ctx = ex;
}

/* ---- Account deletion ------------------------------------------------------- */

/* DELETE /api/account {"password"}: the password again, so that a session
 * left open on a shared computer cannot delete the account; refused to
 * API tokens, which are for scripts.  The name is never free again: a
 * game's players stay who they were (docs/api.md). */
void api_account_delete(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) return reply_error(r, 401, "log in to delete your account");
    if (req->by_token) return reply_error(r, 403, "an API token cannot delete an account: use the account page");
    json_t *body = body_object(req, r);
    if (!body) return;
    const char *password = member_string(body, "password");
    char *hash = NULL;
    int64_t id = 0, now = server_now_ms();
    if (!password) {
        reply_error(r, 400, "give your password to delete your account");
    } else if (!store_user_hash(s, req->user_name, &id, &hash)) {
        reply_error(r, 503, "the database cannot be read now");
    } else if (!hash || id != req->user) {
        reply_error(r, 401, "log in to delete your account");
    } else if (!auth_login_begin(req->user_name, now)) {
        reply_error(r, 429, "too many wrong passwords for this name: wait a minute and try again");
    } else {
        AuthStatus checked = auth_check_password(hash, password);
        auth_login_end(req->user_name, checked, now);
        if (checked == AUTH_BUSY) {
            reply_error(r, 503, "the server is checking many passwords right now: try again in a few seconds");
        } else if (checked != AUTH_OK) {
            reply_error(r, 403, "wrong password");
        } else if (!store_begin(s) || !store_account_delete(s, req->user) || !store_commit(s)) {
            store_rollback(s);
            reply_error(r, 503, "the database cannot be written now");
        } else {
            reply_json(r, 200, json_pack("{s:b}", "deleted", true));
            r->set_cookie = strdup("ttchess_session=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0");
        }
    }
    free(hash);
    json_decref(body);
}
