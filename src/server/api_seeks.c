/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Open challenges to anyone ("seeks", docs/api.md): a player posts one
 * with the variant, options, time control and colour of a new game; every
 * lobby lists it, live, and the first player to accept it takes the other
 * seat and the game starts.  The lobby's lists (open challenges, games
 * being played) are also what its event stream sends (http.c).
 *
 * A seek is stored as a game whose status is "seek", with no opponent and
 * no invitation: accepting it is taking that seat (take_seat, as joining
 * by a link), withdrawing it ends it as a withdrawn challenge, and it
 * counts toward its player's games like a game waiting for a link's
 * guest.  So it needs no table of its own, holds on every server of one
 * database, and its events (seek, accepted, declined) wake the lobbies.
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

/* Open challenges a player may have at once: each is a line in every
 * lobby, so a script must not fill them. */
enum { SERVER_MAX_SEEKS = 3 };

bool under_seek_limit(Store *s, int64_t user, ApiReply *r)
{
    return under_limit(store_seeks_open(s, user), SERVER_MAX_SEEKS,
                       "you have %d open challenges, the most a player may have: withdraw one first", r);
}

/* {"seeks": [...], "playing": [...]}, or NULL on a database error. */
static json_t *lobby_lists(Store *s)
{
    json_t *seeks = json_array(), *playing = json_array();
    if (!seeks || !playing || !store_lobby(s, seeks, playing)) {
        json_decref(seeks);
        json_decref(playing);
        return NULL;
    }
    return json_pack("{s:o, s:o}", "seeks", seeks, "playing", playing);
}

void api_lobby(Store *s, ApiReply *r)
{
    json_t *lists = lobby_lists(s);
    if (lists) reply_json(r, 200, lists);
    else reply_error(r, 503, "the database cannot be read now");
}

char *api_lobby_line(Store *s)
{
    json_t *lists = lobby_lists(s);
    char *line = lists ? json_dumps(lists, JSON_COMPACT) : NULL;
    json_decref(lists);
    return line;
}

void api_seek_create(Store *s, const ApiRequest *req, ApiReply *r)
{
    create_game(s, req, true, r);
}

/* Loads a seek's row, or replies: 404 no such game, 409 one that is no
 * longer an open challenge (taken or withdrawn). */
static bool load_seek(Store *s, const char *id, GameRow *row, ApiReply *r)
{
    if (!load_row(s, id, row, r)) return false;
    if (row->status && !strcmp(row->status, "seek")) return true;
    reply_error(r, 409, "this open challenge has already been accepted or withdrawn");
    store_game_free(row);
    return false;
}

void api_seek_accept(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to accept an open challenge");
        return;
    }
    GameRow row;
    if (!load_seek(s, id, &row, r)) return;
    bool blocked = false;
    if (row.creator == req->user) {
        reply_error(r, 409, "this is your own open challenge: wait for another player to accept it");
    } else if (!store_blocked(s, req->user, row.creator, &blocked)) {
        reply_error(r, 503, "the database cannot be read now");
    } else if (blocked) {
        reply_error(r, 403, "this player does not accept challenges from you");
    } else {
        /* Two players accepting at once: the row's version lets one take
         * the seat, the other gets 409 (take_seat). */
        take_seat(s, &row, req->user, "accepted", r);
    }
    store_game_free(&row);
}

void api_seek_withdraw(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    if (!req->user) {
        reply_error(r, 401, "log in to withdraw an open challenge");
        return;
    }
    GameRow row;
    if (!load_seek(s, id, &row, r)) return;
    if (row.creator != req->user) {
        reply_error(r, 403, "this open challenge is not yours");
    } else {
        char reason[96];
        snprintf(reason, sizeof reason, "withdrawn by %s", req->user_name);
        close_challenge(s, &row, reason, r);
    }
    store_game_free(&row);
}
