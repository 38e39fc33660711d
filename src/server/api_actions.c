/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The action request of docs/api.md (POST /api/games/{id}/actions): the
 * game loaded, the player and ply checked, the action taken (actions.c)
 * and committed with its event; and what every action shares: a declared
 * end, the end by the rules, the live clock, and the end on time, which
 * the clocks' timer asks for too (api_flag).
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

/* ---- Actions ------------------------------------------------------------ */

/* Ends the game as the players declared ("0-1 white resigns"): the
 * game's own rules judge the end (van Gog), and the row keeps both. */
bool declare_end(GameRow *row, Game *g, Outcome o, const char *words)
{
    if (!game_declare(g, o, words)) return false;
    char declared[128];
    snprintf(declared, sizeof declared, "%s %s", result_string(o.result), words);
    set_string(&row->declared, declared);
    return true;
}

/* After any action: is the game over by the rules or a declared end? */
void settle_row(GameRow *row, const Game *g)
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
void charge_clock(GameRow *row, int mover, int64_t now)
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
bool flag_due(const GameRow *row, int64_t now)
{
    int64_t deadline = clock_deadline(row);
    return deadline && now >= deadline;
}

/* Ends the game on time for its side to move: a loss, or a draw when the
 * opponent could not win by any series of legal actions (the library's
 * outcome_on_time); the game's own rules still judge the end (van Gog's
 * obligations).  Fills the "time" event; false only when out of memory. */
bool end_on_time(GameRow *row, Game *g, char event[2][512])
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

/* The live clocks as the row has them at `now`, and `now`, added to the
 * event's data: a page that follows the game by its events sets its
 * clocks from them and fetches no state, and one that reads the event
 * late (a stream reopened after Last-Event-ID) counts the running side's
 * time from `at`.  A game without a live clock has neither: its event is
 * the action alone (a correspondence deadline is the action's time plus
 * the days a move, which a client knows).  The data stays as it was when
 * the fields would not fit in it (the client then reads the state). */
void stamp_clock(const GameRow *row, int64_t now, char event[2][512])
{
    if (!row->base_ms) return;
    json_t *d = json_loads(event[1], 0, NULL);
    bool running = !strcmp(row->status, "active") && row->ply > 0;
    if (!json_is_object(d) || json_object_set_new(d, "clock", play_clock(row, row->to_move, running, now)) ||
        json_object_set_new(d, "at", json_integer(now))) {
        json_decref(d);
        return;
    }
    char *dump = json_dumps(d, JSON_COMPACT);
    if (dump && strlen(dump) < 512) snprintf(event[1], 512, "%s", dump);
    free(dump);
    json_decref(d);
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
    bool ok = play_restore(s, &row, &g, &err);
    *again = !ok && !strcmp(text_str(&err), PLAY_MOVED_ON);
    text_free(&err);
    char event[2][512] = { "", "{}" };
    bool stale = false, begun = ok && store_begin(s);
    ok = begun && end_on_time(&row, &g, event);
    if (ok) stamp_clock(&row, now, event);
    ok = ok && store_game_update(s, &row, &stale) && tournament_game_over(s, &row) &&
         store_event_add(s, id, event[0], row.ply, event[1], &row.last_event) && store_commit(s);
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

void api_action(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
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
        } else if (keep = -1, !action_take(s, &row, &g, mine, action, event, r)) {
            store_rollback(s);
        } else if (!store_game_update(s, &row, &stale) || !tournament_game_over(s, &row) ||
                   !store_event_add(s, id, event[0], row.ply, event[1], &row.last_event) ||
                   !mail_after_action(s, &row, (int)json_integer_value(ply), req->user_name, req->site) ||
                   !store_commit(s)) {
            store_rollback(s);
            if (stale) reply_error(r, 409, "the game has moved on: reload it (it changed while your action was checked)");
            else reply_error(r, 503, "the database cannot be written now");
        } else {
            events_notify();
            mail_wake();
            wake_engine(s, &row);
            wake_clock(s, &row, row.version + 1);
            reply_json(r, 200, brief ? brief_state(&row) : play_state(&row, &g, req->user, state_parts(req)));
            keep = row.version + 1;
        }
        if (keep >= 0) cache_put(s->cache, id, keep, &g);
        else game_free(&g);
        store_game_free(&row);
    }
    json_decref(body);
}
