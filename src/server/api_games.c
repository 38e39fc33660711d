/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The handlers of games as a whole (docs/api.md): a game created (its
 * clock, start and opponent read from the request), read, joined by its
 * invitation, its challenge answered; a player's list of games; a game's
 * records (PGN, sheets) and diagram.
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

#include "diagram.h"
#include "pgn.h"
#include "sheets.h"
#include "registry.h"

/* ---- Creating games ----------------------------------------------------- */

/* The clock of a new game from its request: "clock": {"minutes",
 * "increment"} (live), or "days_per_move"; neither: correspondence at 3
 * days a move.  False after a 400 reply. */
bool read_clock(json_t *body, GameRow *g, ApiReply *r)
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
/* The variant, options and start position of a new game, checked by the
 * library: a position in which the game is already over is refused, since
 * such a game would be in play with nothing to play.  Sets g's variant and
 * side to move; false after a 400 or 422 reply. */
bool read_start(json_t *body, GameRow *g, ApiReply *r)
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

/* Rated or casual ("rated": true or false): rated by default between two
 * players; a game against the engine is never rated (its strength is a
 * setting, not a player's).  False after a 400 or 422 reply. */
static bool read_rated(json_t *body, GameRow *g, ApiReply *r)
{
    json_t *rated = json_object_get(body, "rated");
    bool engine = g->engine_level > 0;
    if (rated && !json_is_boolean(rated)) return reply_error(r, 400, "rated is true or false"), false;
    if (engine && json_is_true(rated))
        return reply_error(r, 422, "a game against the engine cannot be rated: give \"rated\": false, or leave it out"),
               false;
    g->rated = rated ? json_is_true(rated) : !engine;
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
    else within = under_game_limit(s, g->creator, r) && (!g->invited || under_challenge_limit(s, g->creator, r)) &&
                  (strcmp(g->status, "seek") || under_seek_limit(s, g->creator, r));
    if (!within) {
        store_rollback(s);
        return false;
    }
    /* A seek's event tells every lobby's stream, on every server, that the
     * list of open challenges changed (api_seeks.c). */
    bool seek = !strcmp(g->status, "seek");
    if (!store_game_add(s, g) || (seek && !store_event_add(s, g->id, "seek", 0, "{}", NULL)) || !store_commit(s)) {
        store_rollback(s);
        return reply_error(r, 503, "the database cannot be written now"), false;
    }
    if (seek) events_notify();
    return true;
}

void api_create_game(Store *s, const ApiRequest *req, ApiReply *r)
{
    create_game(s, req, false, r);
}

/* A game as asked, or (seek) an open challenge that anyone may accept
 * from the lobby: the same start, clock and colour, no opponent named. */
void create_game(Store *s, const ApiRequest *req, bool seek, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, seek ? "log in to post an open challenge" : "log in to create a game");
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
    } else if (seek && (json_object_get(body, "opponent") || json_object_get(body, "level"))) {
        reply_error(r, 400, "an open challenge names no opponent and no engine level: anyone may accept it");
    } else if (read_start(body, &g, r) && read_clock(body, &g, r) &&
               (seek ? (other = 0, g.status = "seek", true) : read_opponent(s, req, body, &g, &other, invite, r)) &&
               read_rated(body, &g, r)) {
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

void api_get_game(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    GameRow row;
    Game g;
    if (!load_game(s, id, &row, &g, r)) return;
    reply_json(r, 200, play_state(&row, &g, req->user, state_parts(req)));
    cache_put(s->cache, id, row.version, &g);
    store_game_free(&row);
}

/* Seats `user` in the game's open seat and starts it, with the joiner's
 * game limit counted in the same transaction (store_lock_user); `event`
 * is the event's type.  The caller has checked who may take the seat. */
void take_seat(Store *s, GameRow *row, int64_t user, const char *event, ApiReply *r)
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
    } else if (!store_game_update(s, row, &stale) ||
               !store_event_add(s, row->id, event, row->ply, data, &row->last_event) || !store_commit(s)) {
        store_rollback(s);
        if (stale) reply_error(r, 409, "someone else has just changed this game: reload it");
        else reply_error(r, 503, "the database cannot be written now");
    } else {
        events_notify();
        reply_json(r, 200, json_pack("{s:s}", "id", row->id));
    }
}

void api_join(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
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

/* Ends a challenge or a seek that was not accepted: its status becomes
 * "declined" with the reason ("withdrawn by NAME"), event "declined". */
void close_challenge(Store *s, GameRow *row, const char *reason, ApiReply *r)
{
    char data[160];
    json_t *d = json_pack("{s:s}", "reason", reason);
    char *dump = d ? json_dumps(d, JSON_COMPACT) : NULL;
    snprintf(data, sizeof data, "%s", dump ? dump : "{}");
    free(dump);
    json_decref(d);
    set_string(&row->status, "declined");
    set_string(&row->reason, reason);
    bool stale = false;
    if (!row->status || !row->reason || !store_begin(s)) {
        reply_error(r, 503, "the database cannot be written now");
    } else if (!store_game_update(s, row, &stale) ||
               !store_event_add(s, row->id, "declined", row->ply, data, &row->last_event) || !store_commit(s)) {
        store_rollback(s);
        reply_error(r, stale ? 409 : 503, stale ? "this challenge has just changed: reload it" : "the database cannot be written now");
    } else {
        events_notify();
        reply_json(r, 200, json_pack("{s:s}", "id", row->id));
    }
}

/* A challenge is accepted by the player it names, who then takes the open
 * seat; it is declined by them, or withdrawn by the challenger.  Until it
 * is accepted nobody may act in the game, and it does not count toward the
 * challenged player's games (docs/api.md, "Challenges"). */
void api_answer_challenge(Store *s, const ApiRequest *req, const char *id, bool accept, ApiReply *r)
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
        char reason[96];
        snprintf(reason, sizeof reason, "%s by %s", challenged ? "declined" : "withdrawn", req->user_name);
        close_challenge(s, &row, reason, r);
    }
    store_game_free(&row);
}

void api_record(Store *s, const char *id, bool pgn, ApiReply *r)
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
void api_diagram(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
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

void api_my_games(Store *s, const ApiRequest *req, ApiReply *r)
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
