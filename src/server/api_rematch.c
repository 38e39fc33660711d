/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The rematch of a game that is over (docs/api.md, "Rematch"): one player
 * offers it, the other accepts or declines it, and the new game has the
 * same variant, options, start position and time control, with the
 * colours swapped.
 *
 * The offer is the new game itself, made at once as a challenge to the
 * opponent (docs/api.md, "Challenges"), so that it is answered as any
 * challenge is, counts toward the same limits and shows in the lobby.  The
 * finished game keeps no column for it: its event `rematch-offer` names
 * the new game, and the new game's status says where the rematch stands
 * (a challenge: offered; declined; anything else: accepted).  Each offer,
 * acceptance and refusal also writes the finished game's row, whose
 * version then makes two requests made together (both players offering
 * at once) apply one after the other, never both.
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

/* Where a game's rematch stands. */
typedef enum RematchStatus { REMATCH_NONE, REMATCH_OFFERED, REMATCH_ACCEPTED, REMATCH_DECLINED } RematchStatus;

static const char *const REMATCH_WORDS[] = { "none", "offered", "accepted", "declined" };

typedef struct Rematch {
    RematchStatus status;
    char game[64];              /* the new game's id ("" when none)       */
    int by;                     /* the colour that offered it             */
} Rematch;

/* The game's rematch, read from its last `rematch-offer` event and the
 * new game's row; false when the database cannot be read. */
static bool find_rematch(Store *s, const char *id, Rematch *out)
{
    memset(out, 0, sizeof *out);
    json_t *events = json_array();
    bool ok = events && store_events_after(s, id, 0, events);
    for (size_t i = ok ? json_array_size(events) : 0; i-- > 0;) {
        json_t *e = json_array_get(events, i);
        if (strcmp(json_string_value(json_object_get(e, "type")), "rematch-offer")) continue;
        json_t *data = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
        const char *game = data ? member_string(data, "game") : NULL, *by = data ? member_string(data, "by") : NULL;
        if (game && by && strlen(game) < sizeof out->game) {
            snprintf(out->game, sizeof out->game, "%s", game);
            out->by = strcmp(by, "white") ? BLACK : WHITE;
        }
        json_decref(data);
        break;
    }
    json_decref(events);
    if (!ok || !out->game[0]) return ok;
    GameRow next;
    bool found;
    if (!store_game_get(s, out->game, &next, &found)) return false;
    out->status = !found ? REMATCH_NONE
                  : !strcmp(next.status, "challenge") ? REMATCH_OFFERED
                  : !strcmp(next.status, "declined") ? REMATCH_DECLINED
                  : REMATCH_ACCEPTED;
    if (found) store_game_free(&next);
    return true;
}

static json_t *rematch_json(const Rematch *m)
{
    if (m->status == REMATCH_NONE) return json_null();
    return json_pack("{s:s, s:s, s:s}", "id", m->game, "by", color_name((Color)m->by), "status", REMATCH_WORDS[m->status]);
}

/* The event's data, {"game": id, ...}, as text (at most 511 bytes). */
static void event_data(char out[512], json_t *data)
{
    char *dump = data ? json_dumps(data, JSON_COMPACT) : NULL;
    snprintf(out, 512, "%s", dump ? dump : "{}");
    free(dump);
    json_decref(data);
}

/* Commits what the transaction wrote to the new game, then the finished
 * game's row (its version: a concurrent answer is stale) and its event;
 * replies with the new game.  Rolls back and replies on any failure. */
static void commit_rematch(Store *s, GameRow *row, const char *game, const char *type, json_t *data, int status,
                           ApiReply *r)
{
    char text[512];
    event_data(text, data);
    bool stale = false;
    if (!store_game_update(s, row, &stale) || !store_event_add(s, row->id, type, row->ply, text, NULL) ||
        !store_commit(s)) {
        store_rollback(s);
        reply_error(r, stale ? 409 : 503, stale ? "the rematch has just changed: reload the game"
                                                : "the database cannot be written now");
        return;
    }
    events_notify();
    char url[96];
    snprintf(url, sizeof url, "/games/%s", game);
    reply_json(r, status, json_pack("{s:s, s:s}", "id", game, "url", url));
}

/* The offer: the new game, a challenge to the opponent (or, against the
 * engine, a game in play at once), with the colours swapped. */
static void offer(Store *s, const ApiRequest *req, GameRow *row, const Game *g, int mine, ApiReply *r)
{
    int64_t them = mine == WHITE ? row->black : row->white;
    bool engine = them == -1, blocked = false;
    if (!engine && !store_blocked(s, req->user, them, &blocked)) {
        reply_error(r, 503, "the database cannot be read now");
        return;
    }
    if (blocked) {
        reply_error(r, 403, "this player does not accept challenges from you");
        return;
    }
    char id[2 * SERVER_TOKEN_BYTES + 1];
    auth_new_token(id);
    id[16] = '\0';
    GameRow next = {
        .id = id, .variant = row->variant, .options = row->options, .fen = row->fen, .creator = req->user,
        .invited = engine ? 0 : them, .base_ms = row->base_ms, .inc_ms = row->inc_ms, .days_per_move = row->days_per_move,
        .engine_level = row->engine_level, .white_ms = row->base_ms, .black_ms = row->base_ms,
        .status = engine ? "active" : "challenge", .kibitz = true, .rated = engine ? 0 : row->rated != 0,
        .to_move = game_node(g, 0)->state->board.side,
    };
    /* The colours swapped: the offerer takes the other side; the
     * opponent's seat waits for the acceptance (the engine's is taken). */
    *(mine == WHITE ? &next.black : &next.white) = req->user;
    *(mine == WHITE ? &next.white : &next.black) = engine ? -1 : 0;
    if (!store_begin(s)) {
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    if (!store_lock_user(s, req->user)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    if (!under_game_limit(s, req->user, r) ||
        (!engine && !under_limit(store_challenges_sent(s, req->user), SERVER_MAX_CHALLENGES,
                                 "you have %d challenges waiting for an answer, the most a player may have", r))) {
        store_rollback(s);
        return;
    }
    if (!store_game_add(s, &next)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    /* Against the engine the offer is accepted as it is made: the one
     * event says both. */
    char text[512];
    event_data(text, json_pack("{s:s, s:s}", "game", id, "by", color_name((Color)mine)));
    if (engine && !store_event_add(s, row->id, "rematch-offer", row->ply, text, NULL)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
        return;
    }
    commit_rematch(s, row, id, engine ? "rematch" : "rematch-offer",
                   json_pack("{s:s, s:s}", "game", id, "by", color_name((Color)mine)), 201, r);
    if (r->status == 201 && engine) wake_engine(s, &next);
}

/* The opponent accepts: they take the new game's open seat and it starts. */
static void accept(Store *s, const ApiRequest *req, GameRow *row, const Rematch *m, ApiReply *r)
{
    GameRow next;
    if (!load_row(s, m->game, &next, r)) return;
    if (!next.white) next.white = req->user;
    else next.black = req->user;
    set_string(&next.status, "active");
    char joined[64];
    snprintf(joined, sizeof joined, "{\"joined\":\"%s\"}", next.white == req->user ? "white" : "black");
    bool stale = false;
    if (!next.status || !store_begin(s)) {
        reply_error(r, 503, "the database cannot be written now");
    } else if (!store_lock_user(s, req->user)) {
        store_rollback(s);
        reply_error(r, 503, "the database cannot be written now");
    } else if (!under_game_limit(s, req->user, r)) {
        store_rollback(s);
    } else if (!store_game_update(s, &next, &stale) || !store_event_add(s, next.id, "accepted", 0, joined, NULL)) {
        store_rollback(s);
        reply_error(r, stale ? 409 : 503, stale ? "the rematch has just changed: reload the game"
                                                : "the database cannot be written now");
    } else {
        commit_rematch(s, row, next.id, "rematch", json_pack("{s:s}", "game", next.id), 200, r);
    }
    store_game_free(&next);
}

/* Declined by the opponent, or withdrawn by the player who offered it:
 * the new game is a declined challenge, as any other. */
static void decline(Store *s, const ApiRequest *req, GameRow *row, const Rematch *m, int mine, ApiReply *r)
{
    GameRow next;
    if (!load_row(s, m->game, &next, r)) return;
    char reason[96], text[512];
    snprintf(reason, sizeof reason, "%s by %s", m->by == mine ? "withdrawn" : "declined", req->user_name);
    event_data(text, json_pack("{s:s}", "reason", reason));
    set_string(&next.status, "declined");
    set_string(&next.reason, reason);
    bool stale = false;
    if (!next.status || !next.reason || !store_begin(s)) {
        reply_error(r, 503, "the database cannot be written now");
    } else if (!store_game_update(s, &next, &stale) || !store_event_add(s, next.id, "declined", 0, text, NULL)) {
        store_rollback(s);
        reply_error(r, stale ? 409 : 503, stale ? "the rematch has just changed: reload the game"
                                                : "the database cannot be written now");
    } else {
        commit_rematch(s, row, next.id, "rematch-declined", json_pack("{s:s, s:s}", "game", next.id, "reason", reason),
                       200, r);
    }
    store_game_free(&next);
}

/* Why the player may not answer (accept or decline) the rematch, or NULL. */
static const char *answer_refused(const Rematch *m, int mine, bool accepting)
{
    if (m->status == REMATCH_NONE) return "no rematch has been offered";
    if (m->status == REMATCH_ACCEPTED) return "the rematch has begun already";
    if (m->status == REMATCH_DECLINED) return "the rematch was declined";
    if (accepting && m->by == mine) return "you offered this rematch: your opponent accepts it";
    return NULL;
}

/* The player's request on a finished game's rematch: `answer` NULL
 * offers it (or accepts the opponent's offer), "accept" or "decline". */
static void answer_rematch(Store *s, const ApiRequest *req, const char *id, const char *answer, ApiReply *r)
{
    GameRow row;
    Game g;
    if (!load_game(s, id, &row, &g, r)) return;
    int mine = row.white == req->user ? WHITE : row.black == req->user ? BLACK : -1;
    Rematch m;
    const char *why;
    if (mine < 0) {
        reply_error(r, 403, "you are not a player of this game");
    } else if (strcmp(row.status, "over")) {
        reply_error(r, 409, "a rematch is offered once the game is over");
    } else if (!find_rematch(s, id, &m)) {
        reply_error(r, 503, "the database cannot be read now");
    } else if (!answer && m.status == REMATCH_OFFERED && m.by == mine) {
        reply_error(r, 409, "you have offered a rematch already");
    } else if (!answer && m.status == REMATCH_OFFERED) {
        /* Both players asked for it: the second request accepts. */
        accept(s, req, &row, &m, r);
    } else if (!answer && m.status != REMATCH_NONE) {
        reply_error(r, 409, answer_refused(&m, mine, false));
    } else if (!answer) {
        offer(s, req, &row, &g, mine, r);
    } else if ((why = answer_refused(&m, mine, !strcmp(answer, "accept")))) {
        reply_error(r, 409, why);
    } else if (!strcmp(answer, "accept")) {
        accept(s, req, &row, &m, r);
    } else {
        decline(s, req, &row, &m, mine, r);
    }
    cache_put(s->cache, id, row.version, &g);
    store_game_free(&row);
}

void api_rematch(Store *s, const ApiRequest *req, const char *id, const char *answer, ApiReply *r)
{
    if (!strcmp(req->method, "GET") && !answer) {
        Rematch m;
        GameRow row;
        if (!load_row(s, id, &row, r)) return;
        store_game_free(&row);
        if (find_rematch(s, id, &m)) reply_json(r, 200, json_pack("{s:o}", "rematch", rematch_json(&m)));
        else reply_error(r, 503, "the database cannot be read now");
    } else if (!strcmp(req->method, "GET") || (answer && strcmp(answer, "accept") && strcmp(answer, "decline"))) {
        reply_error(r, 404, "no such API");
    } else if (!req->user) {
        reply_error(r, 401, "log in to answer a rematch");
    } else {
        answer_rematch(s, req, id, answer, r);
    }
}
