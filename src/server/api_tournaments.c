/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tournaments (docs/api.md, "Tournaments"): arenas for live play and
 * round-robins for correspondence, created by any player, joined and left,
 * their games made by the server with the games' own machinery (a game of
 * a tournament is a game like any other, with its tournament's id in its
 * row), their standings counted in the transaction that ends each game.
 *
 * An arena (lichess's rules) runs for its minutes: a timer thread pairs
 * its waiting players as they finish their games, by score, without an
 * immediate rematch; when its time is up no game is paired any more, and
 * the games still in play count when they end.  A round-robin's players
 * are invited by its creator; at its start every pair of those who
 * accepted plays two games, one with each colour, and it ends with its
 * last game.  The rules themselves are pure functions (tournament.c).
 */
#include "api_internal.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "registry.h"
#include "store_tournaments.h"

/* Tournaments a player may have created that are not finished: each is a
 * line in every list, and the timer reads every running arena. */
enum { SERVER_MAX_OPEN_TOURNAMENTS = 3, TOURNAMENT_MAX_NAME = 60, TOURNAMENT_MAX_MINUTES = 720,
       TOURNAMENT_MAX_AHEAD_DAYS = 30, TOURNAMENT_TICK_MS = 200, TOURNAMENT_LIST = 20 };

static atomic_int minute_ms = 60000;

void tournaments_set_minute_ms(int ms)
{
    atomic_store(&minute_ms, ms);
}

/* ---- Creating ------------------------------------------------------------- */

/* A round-robin's invited players, by name: other players, each once, at
 * most TOURNAMENT_MAX_ROBIN - 1 of them (the creator plays too). */
static bool read_invited(Store *s, const ApiRequest *req, json_t *players, int64_t *ids, int *count, ApiReply *r)
{
    size_t n = json_array_size(players);
    if (!json_is_array(players) || n < 1 || n > TOURNAMENT_MAX_ROBIN - 1)
        return reply_error(r, 400, "a round-robin lists its other \"players\" by name: 1 to 9 of them"), false;
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        const char *name = json_string_value(json_array_get(players, i));
        int64_t id = 0;
        if (!name || !store_user_id(s, name, &id) || !id)
            return reply_error(r, 400, "a player listed has no account of that name"), false;
        for (int j = 0; j < *count; j++)
            if (ids[j] == id) return reply_error(r, 400, "a player is listed twice"), false;
        if (id == req->user) return reply_error(r, 400, "list the other players: you play in it already"), false;
        ids[(*count)++] = id;
    }
    return true;
}

/* When it starts: "starts_at" (ms since the epoch) or "starts_in"
 * (seconds from now), within TOURNAMENT_MAX_AHEAD_DAYS; now if neither. */
static bool read_start_time(json_t *body, int64_t now, int64_t *at, ApiReply *r)
{
    json_t *abs = json_object_get(body, "starts_at"), *rel = json_object_get(body, "starts_in");
    int64_t ahead = (int64_t)TOURNAMENT_MAX_AHEAD_DAYS * 86400000;
    *at = now;
    if (abs && json_is_integer(abs)) *at = json_integer_value(abs);
    else if (rel && json_is_integer(rel) && json_integer_value(rel) <= ahead / 1000)
        *at = now + json_integer_value(rel) * 1000;
    else if (abs || rel) *at = -1;
    if (*at >= now - 60000 && *at <= now + ahead) return true;
    reply_error(r, 400, "a tournament starts now or within 30 days: \"starts_at\" (ms) or \"starts_in\" (seconds)");
    return false;
}

/* The kind, name, game and times of a new tournament from its request;
 * false after a reply. */
static bool read_tournament(json_t *body, TournamentRow *t, int64_t now, ApiReply *r)
{
    const char *kind = member_string(body, "kind"), *name = member_string(body, "name");
    json_t *minutes = json_object_get(body, "minutes");
    GameRow g = { 0 };
    if (!kind || (strcmp(kind, "arena") && strcmp(kind, "round-robin")))
        return reply_error(r, 400, "\"kind\" is \"arena\" or \"round-robin\""), false;
    if (!name || !*name || strlen(name) > TOURNAMENT_MAX_NAME)
        return reply_error(r, 400, "a tournament has a \"name\" of 1 to 60 bytes"), false;
    bool arena = !strcmp(kind, "arena");
    if (arena && json_object_get(body, "days_per_move"))
        return reply_error(r, 400, "an arena is played on a live \"clock\""), false;
    if (!arena && json_object_get(body, "clock"))
        return reply_error(r, 400, "a round-robin is played by correspondence: \"days_per_move\""), false;
    if (arena && !json_object_get(body, "clock"))
        return reply_error(r, 400, "an arena needs a live \"clock\": {\"minutes\", \"increment\"}"), false;
    json_int_t m = json_is_integer(minutes) ? json_integer_value(minutes) : -1;
    if (arena && (m < 1 || m > TOURNAMENT_MAX_MINUTES))
        return reply_error(r, 400, "an arena lasts \"minutes\": 1 to 720"), false;
    if (!read_start(body, &g, r) || !read_clock(body, &g, r) || !read_start_time(body, now, &t->starts_at, r))
        return false;
    if (g.fen) return reply_error(r, 400, "a tournament's games start from the variant's position: no \"fen\""), false;
    t->name = strdup(name);
    t->kind = strdup(kind);
    t->variant = strdup(g.variant);
    t->options = g.options ? strdup(g.options) : NULL;
    t->base_ms = g.base_ms;
    t->inc_ms = g.inc_ms;
    t->days_per_move = g.days_per_move;
    t->minutes = arena ? (int)m : 0;
    t->ends_at = arena ? t->starts_at + (int64_t)m * atomic_load(&minute_ms) : 0;
    if (t->name && t->kind && t->variant && (!g.options || t->options)) return true;
    return reply_error(r, 500, "out of memory"), false;
}

/* Counted and written in one transaction with the creator's row locked,
 * so that requests sent together cannot pass the limit. */
static bool add_within_limit(Store *s, TournamentRow *t, const int64_t *invited, int count, ApiReply *r)
{
    if (!store_begin(s)) return reply_error(r, 503, "the database cannot be written now"), false;
    if (!store_lock_user(s, t->creator)) {
        store_rollback(s);
        return reply_error(r, 503, "the database cannot be written now"), false;
    }
    if (!under_limit(store_tournaments_open(s, t->creator), SERVER_MAX_OPEN_TOURNAMENTS,
                     "you have %d tournaments upcoming or running, the most a player may create", r)) {
        store_rollback(s);
        return false;
    }
    if (!store_tournament_add(s, t, invited, count) || !store_notify(s, "tournaments") || !store_commit(s)) {
        store_rollback(s);
        return reply_error(r, 503, "the database cannot be written now"), false;
    }
    events_notify();
    return true;
}

void api_tournament_create(Store *s, const ApiRequest *req, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to create a tournament");
        return;
    }
    json_t *body = body_object(req, r);
    if (!body) return;
    TournamentRow t = { .creator = req->user };
    int64_t invited[TOURNAMENT_MAX_ROBIN];
    int count = 0;
    if (read_tournament(body, &t, server_now_ms(), r) &&
        (!strcmp(t.kind, "arena") || read_invited(s, req, json_object_get(body, "players"), invited, &count, r)) &&
        add_within_limit(s, &t, invited, count, r)) {
        char url[64];
        snprintf(url, sizeof url, "/tournaments/%lld", (long long)t.id);
        reply_json(r, 201, json_pack("{s:I, s:s}", "id", (json_int_t)t.id, "url", url));
    }
    store_tournament_free(&t);
    json_decref(body);
}

/* ---- Reading -------------------------------------------------------------- */

void api_tournaments(Store *s, ApiReply *r)
{
    static const char *const lists[] = { "upcoming", "running", "finished" };
    json_t *out = json_object();
    bool ok = out != NULL;
    for (int i = 0; ok && i < 3; i++) {
        json_t *list = json_array();
        ok = list && !json_object_set_new(out, lists[i], list) &&
             store_tournaments_list(s, lists[i], TOURNAMENT_LIST, list);
    }
    if (ok) reply_json(r, 200, out);
    else json_decref(out), reply_error(r, 503, "the database cannot be read now");
}

/* A round-robin's standings: scores in half points and Sonneborn-Berger
 * from its games, set on the entries (by user id) as numbers. */
static bool robin_scores(Store *s, int64_t t, json_t *entries)
{
    size_t n = json_array_size(entries), i;
    json_t *games = json_array(), *g, *e;
    bool ok = games && store_robin_games(s, t, games);
    size_t count = json_array_size(games);
    RobinGame *rg = calloc(count ? count : 1, sizeof *rg);
    int *half = calloc(n ? n : 1, sizeof *half), *sb = calloc(n ? n : 1, sizeof *sb);
    ok = ok && rg && half && sb;
    json_array_foreach(ok ? games : NULL, i, g) {
        for (size_t j = 0; j < n; j++) {
            json_int_t id = json_integer_value(json_object_get(json_array_get(entries, j), "id"));
            if (id == json_integer_value(json_object_get(g, "white"))) rg[i].white = (int)j;
            if (id == json_integer_value(json_object_get(g, "black"))) rg[i].black = (int)j;
        }
        char w = tournament_letter(json_string_value(json_object_get(g, "result")), true);
        rg[i].result = w == 'W' ? 'W' : w == 'L' ? 'B' : w;
    }
    if (ok) robin_standings((int)n, rg, (int)count, half, sb);
    json_array_foreach(ok ? entries : NULL, i, e) {
        json_object_set_new(e, "score", json_real(half[i] / 2.0));
        json_object_set_new(e, "sb", json_real(sb[i] / 4.0));
    }
    free(rg);
    free(half);
    free(sb);
    json_decref(games);
    return ok;
}

/* An entry and its place in the database's order (by score, then who
 * joined first), so that the sort below is stable: equal standings keep
 * that order, and a stream does not send a table whose ties swapped. */
typedef struct Ranked {
    json_t *entry;
    size_t order;
} Ranked;

/* Higher score first, then (round-robin) the higher Sonneborn-Berger. */
static int by_standing(const void *a, const void *b)
{
    const Ranked *p = a, *q = b;
    json_t *x = p->entry, *y = q->entry;
    double d = json_number_value(json_object_get(y, "score")) - json_number_value(json_object_get(x, "score"));
    if (d == 0) d = json_number_value(json_object_get(y, "sb")) - json_number_value(json_object_get(x, "sb"));
    if (d == 0) return (p->order > q->order) - (p->order < q->order);
    return (d > 0) - (d < 0);
}

/* The standings, ranked, without the players' ids; the entries of
 * players still invited are left out. */
static json_t *standings(Store *s, const TournamentRow *t)
{
    json_t *entries = json_array();
    if (!entries || !store_entries(s, t->id, entries) ||
        (strcmp(t->kind, "arena") && !robin_scores(s, t->id, entries))) {
        json_decref(entries);
        return NULL;
    }
    size_t n = json_array_size(entries), i;
    Ranked *sorted = calloc(n ? n : 1, sizeof *sorted);
    json_t *out = json_array();
    for (i = 0; sorted && i < n; i++) sorted[i] = (Ranked){ json_array_get(entries, i), i };
    if (sorted) qsort(sorted, n, sizeof *sorted, by_standing);
    for (i = 0; sorted && out && i < n; i++) {
        json_t *e = sorted[i].entry;
        if (!strcmp(json_string_value(json_object_get(e, "status")), "invited")) continue;
        json_object_del(e, "id");
        json_object_set_new(e, "rank", json_integer((json_int_t)json_array_size(out) + 1));
        json_object_set_new(e, "fire", json_boolean(json_integer_value(json_object_get(e, "streak")) >= 2));
        json_array_append(out, e);
    }
    if (!sorted) json_decref(out), out = NULL;
    free(sorted);
    json_decref(entries);
    return out;
}

/* The state of GET /api/tournaments/{id}; NULL on a database error. */
static json_t *tournament_json(Store *s, const TournamentRow *t)
{
    json_t *table = standings(s, t), *games = json_array();
    if (!table || !games || !store_tournament_games(s, t->id, games)) {
        json_decref(table);
        json_decref(games);
        return NULL;
    }
    json_t *o = json_pack("{s:I, s:s, s:s, s:s, s:s, s:s?, s:I, s:I, s:i, s:I, s:i, s:I, s:s, s:I}", "id",
                          (json_int_t)t->id, "name", t->name, "kind", t->kind, "creator", t->creator_name, "variant",
                          t->variant, "options", t->options, "base_ms", (json_int_t)t->base_ms, "inc_ms",
                          (json_int_t)t->inc_ms, "days_per_move", t->days_per_move, "starts_at",
                          (json_int_t)t->starts_at, "minutes", t->minutes, "ends_at", (json_int_t)t->ends_at,
                          "status", t->status, "now", (json_int_t)server_now_ms());
    if (o && !json_object_set_new(o, "standings", table) && !json_object_set_new(o, "games", games)) return o;
    json_decref(o);
    return NULL;
}

/* The tournament of an id in the path, or a reply: 404 for none. */
static bool load_tournament(Store *s, const char *id, TournamentRow *t, ApiReply *r)
{
    char *end;
    long long n = strtoll(id, &end, 10);
    bool found = false;
    if (*end || n <= 0) return reply_error(r, 404, "no such tournament"), false;
    if (!store_tournament_get(s, n, t, &found)) return reply_error(r, 503, "the database cannot be read now"), false;
    if (!found) reply_error(r, 404, "no such tournament");
    return found;
}

void api_tournament_get(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    TournamentRow t;
    if (!load_tournament(s, id, &t, r)) return;
    json_t *o = tournament_json(s, &t);
    char *mine = NULL;
    if (o && req->user && store_entry_status(s, t.id, req->user, &mine))
        json_object_set_new(o, "me", mine ? json_string(mine) : json_null());
    free(mine);
    if (o) reply_json(r, 200, o);
    else reply_error(r, 503, "the database cannot be read now");
    store_tournament_free(&t);
}

char *api_tournament_line(Store *s, const char *id)
{
    TournamentRow t;
    ApiReply r;
    memset(&r, 0, sizeof r);
    if (!load_tournament(s, id, &t, &r)) {
        json_decref(r.json);
        return NULL;
    }
    json_t *o = tournament_json(s, &t);
    /* The clock's "now" would make every line new: a stream sends the
     * standings when they change. */
    json_object_del(o, "now");
    char *line = o ? json_dumps(o, JSON_COMPACT) : NULL;
    json_decref(o);
    store_tournament_free(&t);
    return line;
}

/* ---- Joining and leaving -------------------------------------------------- */

/* Why a player may not join or leave now; NULL when they may.  An arena
 * is joined before or while it runs, by anyone, up to its size; a
 * round-robin only by the players invited, before it starts, and then it
 * is too late to leave. */
static const char *entry_refusal(const TournamentRow *t, const char *entry, bool join, int64_t players)
{
    bool arena = !strcmp(t->kind, "arena");
    if (!strcmp(t->status, "finished")) return "the tournament is over";
    if (!arena && strcmp(t->status, "upcoming")) return "the round-robin has started: its games are being played";
    if (!arena && !entry) return "a round-robin is played by the players its creator invited";
    if (join && entry && !strcmp(entry, "joined")) return "you are in the tournament already";
    if (!join && (!entry || strcmp(entry, "joined"))) return "you are not in the tournament";
    if (join && players >= (arena ? TOURNAMENT_MAX_ARENA : TOURNAMENT_MAX_ROBIN)) return "the tournament is full";
    return NULL;
}

void api_tournament_enter(Store *s, const ApiRequest *req, const char *id, bool join, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, join ? "log in to join a tournament" : "log in to leave a tournament");
        return;
    }
    TournamentRow t;
    if (!load_tournament(s, id, &t, r)) return;
    char *entry = NULL;
    const char *why = NULL;
    /* The count and the entry are read with the tournament locked, so
     * that players joining together cannot pass its size. */
    bool begun = store_begin(s);
    bool ok = begun && store_tournament_lock(s, t.id) && store_entry_status(s, t.id, req->user, &entry);
    int64_t players = ok ? store_entries_joined(s, t.id) : -1;
    ok = ok && players >= 0;
    if (ok) why = entry_refusal(&t, entry, join, players);
    if (ok && !why)
        ok = store_entry_set(s, t.id, req->user, join ? "joined" : "withdrawn") && store_notify(s, "tournaments") &&
             store_commit(s);
    if (begun && (!ok || why)) store_rollback(s);
    if (!ok) {
        reply_error(r, 503, "the database cannot be written now");
    } else if (why) {
        reply_error(r, 409, why);
    } else {
        events_notify();
        reply_json(r, 200, json_pack("{s:s}", "status", join ? "joined" : "withdrawn"));
    }
    free(entry);
    store_tournament_free(&t);
}

/* ---- The end of a game ------------------------------------------------------ */

/* A player's sheet with the game's letter added, and their score again. */
static bool count_game(Store *s, const TournamentRow *t, int64_t user, char letter)
{
    char *sheet = NULL;
    if (!store_entry_sheet(s, t->id, user, &sheet)) return false;
    size_t n = strlen(sheet);
    char *more = realloc(sheet, n + 2);
    if (!more) return free(sheet), false;
    more[n] = letter;
    more[n + 1] = '\0';
    int streak = 0;
    int score = !strcmp(t->kind, "arena") ? arena_points(more, &streak) : robin_half_points(more);
    bool ok = store_entry_score(s, t->id, user, score, streak, more);
    free(more);
    return ok;
}

bool tournament_game_over(Store *s, const GameRow *row)
{
    int64_t id = 0;
    if (!row->status || strcmp(row->status, "over")) return true;
    if (!store_game_tournament(s, row->id, &id)) return false;
    if (!id) return true;
    TournamentRow t;
    bool found = false, moved = false;
    if (!store_tournament_get(s, id, &t, &found) || !found) return false;
    char white = tournament_letter(row->result, true), black = tournament_letter(row->result, false);
    bool ok = white && black && count_game(s, &t, row->white, white) && count_game(s, &t, row->black, black);
    /* A round-robin ends with its last game. */
    if (ok && strcmp(t.kind, "arena") && store_tournament_unfinished(s, id) == 0)
        ok = store_tournament_move(s, id, "running", "finished", &moved);
    store_tournament_free(&t);
    return ok && store_notify(s, "tournaments");
}

/* ---- The timer: starts, pairings, ends ------------------------------------ */

/* A tournament's game between two players, active at once (its clock
 * starts with White's first action), written in the open transaction. */
static bool add_game(Store *s, const TournamentRow *t, int64_t white, int64_t black, int to_move)
{
    char id[2 * SERVER_TOKEN_BYTES + 1];
    auth_new_token(id);
    id[16] = '\0';
    GameRow g = { .id = id, .variant = t->variant, .options = t->options, .white = white, .black = black,
                  .creator = white, .base_ms = t->base_ms, .inc_ms = t->inc_ms, .days_per_move = t->days_per_move,
                  .white_ms = t->base_ms, .black_ms = t->base_ms, .status = "active", .kibitz = true,
                  .to_move = to_move };
    return store_game_add(s, &g) && store_game_set_tournament(s, id, t->id) &&
           store_event_add(s, id, "tournament", 0, "{}", NULL);
}

/* The side to move in the variant's start position with these options. */
static bool first_mover(const TournamentRow *t, int *to_move)
{
    const Variant *v = variant_find(t->variant);
    Options opts;
    Game g;
    Text err = TEXT_INIT;
    bool ok = v != NULL;
    if (ok) options_default(v, &opts);
    ok = ok && (!t->options || options_parse(v, &opts, t->options, &err)) && game_init(&g, v, &opts, NULL, &err);
    if (ok) *to_move = game_board(&g)->side;
    if (ok) game_free(&g);
    text_free(&err);
    return ok;
}

/* Pairs a running arena's waiting players; *paired the games made. */
static bool pair_arena(Store *s, const TournamentRow *t, int *paired)
{
    ArenaWaiting *w = NULL;
    int n = 0, to_move = 0;
    *paired = 0;
    if (!store_arena_waiting(s, t->id, &w, &n)) return false;
    ArenaPair *pairs = calloc((size_t)(n / 2 + 1), sizeof *pairs);
    int count = pairs ? arena_pair(w, n, pairs) : 0;
    bool ok = pairs && (count == 0 || first_mover(t, &to_move));
    for (int i = 0; ok && i < count; i++) ok = add_game(s, t, pairs[i].white, pairs[i].black, to_move);
    if (ok) *paired = count;
    free(pairs);
    free(w);
    return ok;
}

/* A round-robin starts: every pair of the players who accepted plays two
 * games; with fewer than two it is over at once. */
static bool start_robin(Store *s, const TournamentRow *t)
{
    int64_t *ids = NULL;
    int n = 0, to_move = 0;
    bool moved = false;
    if (!store_entries_ids(s, t->id, &ids, &n)) return false;
    RobinGame *games = calloc((size_t)(n * n + 1), sizeof *games);
    int count = games ? robin_schedule(n, games) : 0;
    bool ok = games && (n >= 2 ? first_mover(t, &to_move) : store_tournament_move(s, t->id, "running", "finished", &moved));
    for (int i = 0; ok && n >= 2 && i < count; i++) ok = add_game(s, t, ids[games[i].white], ids[games[i].black], to_move);
    free(games);
    free(ids);
    return ok;
}

/* One tournament's step at `now`, in a transaction with its row locked:
 * an upcoming one starts, a running arena pairs or ends.  *changed when
 * something was written. */
static bool step_once(Store *s, int64_t id, int64_t now, bool *changed)
{
    TournamentRow t;
    bool found = false, moved = false, ok;
    int paired = 0;
    *changed = false;
    if (!store_begin(s)) return false;
    ok = store_tournament_lock(s, id) && store_tournament_get(s, id, &t, &found);
    if (ok && found && !strcmp(t.status, "upcoming") && t.starts_at <= now) {
        ok = store_tournament_move(s, id, "upcoming", "running", &moved) &&
             (!moved || !strcmp(t.kind, "arena") || start_robin(s, &t));
    } else if (ok && found && !strcmp(t.status, "running") && !strcmp(t.kind, "arena")) {
        if (t.ends_at <= now) ok = store_tournament_move(s, id, "running", "finished", &moved);
        else ok = pair_arena(s, &t, &paired);
    }
    *changed = moved || paired;
    ok = ok && (!*changed || store_notify(s, "tournaments")) && store_commit(s);
    if (!ok) store_rollback(s);
    if (found) store_tournament_free(&t);
    return ok;
}

/* An arena's game whose first move has not come within half an arena
 * minute of its pairing ends as White's loss on time (end_on_time, as if
 * its clock had run from the pairing): a player who does not play must
 * not hold the opponent, who waits for a pairing instead (lichess aborts
 * such a game; a game here has no aborted state).  In the open
 * transaction; *ended counts the games. */
static bool end_stalled(Store *s, int64_t t, int64_t now, int *ended)
{
    json_t *ids = json_array();
    bool ok = ids && store_games_stalled(s, t, now - atomic_load(&minute_ms) / 2, ids);
    size_t i;
    json_t *id;
    json_array_foreach(ok ? ids : NULL, i, id) {
        GameRow row;
        Game g;
        ApiReply r;
        char event[2][512] = { "", "{}" };
        bool stale = false;
        memset(&r, 0, sizeof r);
        if (!load_game(s, json_string_value(id), &row, &g, &r)) {
            json_decref(r.json);
            ok = false;
            break;
        }
        ok = end_on_time(&row, &g, event) && store_game_update(s, &row, &stale) && tournament_game_over(s, &row) &&
             store_event_add(s, row.id, event[0], row.ply, event[1], NULL);
        game_free(&g);
        store_game_free(&row);
        if (!ok) break;
        (*ended)++;
    }
    json_decref(ids);
    return ok;
}

/* Ends an arena's stalled games, with its row locked; *changed when it
 * did. */
static bool unstall(Store *s, int64_t id, int64_t now, bool *changed)
{
    int ended = 0;
    *changed = false;
    if (!store_begin(s)) return false;
    bool ok = store_tournament_lock(s, id) && end_stalled(s, id, now, &ended) &&
              (!ended || store_notify(s, "tournaments")) && store_commit(s);
    if (!ok) store_rollback(s);
    *changed = ok && ended;
    return ok;
}

/* Does a running arena have two players waiting?  Read outside any
 * transaction, so that the timer takes the writer's lock (SQLite) or
 * the tournament's row (PostgreSQL) only when it may pair. */
static bool may_pair(Store *s, int64_t id)
{
    ArenaWaiting *w = NULL;
    int n = 0;
    bool ok = store_arena_waiting(s, id, &w, &n);
    free(w);
    return !ok || n >= 2;
}

/* Every tournament whose time has come, every arena with a stalled game
 * (running or finished: a game in play when an arena ends still counts
 * when it ends), and every running arena. */
static void tick(Store *s, int64_t now)
{
    json_t *lists[4] = { json_array(), json_array(), json_array(), json_array() };
    bool any = false;
    store_enter(s);
    if (lists[0] && lists[1] && lists[2] && lists[3] && store_tournaments_due(s, now, lists[0], lists[1], lists[3]) &&
        store_arenas_stalled(s, now - atomic_load(&minute_ms) / 2, now - atomic_load(&minute_ms), lists[2])) {
        for (int l = 0; l < 4; l++) {
            size_t i;
            json_t *id;
            json_array_foreach(lists[l], i, id) {
                bool changed = false;
                if (l == 3 && !may_pair(s, json_integer_value(id))) continue;
                if (l == 2) unstall(s, json_integer_value(id), now, &changed);
                else step_once(s, json_integer_value(id), now, &changed);
                any = any || changed;
            }
        }
    }
    store_leave(s);
    for (int l = 0; l < 4; l++) json_decref(lists[l]);
    if (any) events_notify();
}

struct TournamentTimer {
    Store *store;
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    bool stopping;
};

static void *timer_loop(void *arg)
{
    struct TournamentTimer *t = arg;
    pthread_mutex_lock(&t->lock);
    while (!t->stopping) {
        pthread_mutex_unlock(&t->lock);
        tick(t->store, server_now_ms());
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += TOURNAMENT_TICK_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        pthread_mutex_lock(&t->lock);
        if (!t->stopping) pthread_cond_timedwait(&t->wake, &t->lock, &until);
    }
    pthread_mutex_unlock(&t->lock);
    return NULL;
}

struct TournamentTimer *tournaments_start(Store *s, Text *err)
{
    struct TournamentTimer *t = calloc(1, sizeof *t);
    if (!t) return text_add(err, "out of memory"), NULL;
    t->store = s;
    pthread_mutex_init(&t->lock, NULL);
    pthread_cond_init(&t->wake, NULL);
    if (pthread_create(&t->thread, NULL, timer_loop, t)) {
        text_add(err, "cannot start the tournaments' timer");
        free(t);
        return NULL;
    }
    return t;
}

void tournaments_stop(struct TournamentTimer *t)
{
    if (!t) return;
    pthread_mutex_lock(&t->lock);
    t->stopping = true;
    pthread_cond_signal(&t->wake);
    pthread_mutex_unlock(&t->lock);
    pthread_join(t->thread, NULL);
    pthread_mutex_destroy(&t->lock);
    pthread_cond_destroy(&t->wake);
    free(t);
}
