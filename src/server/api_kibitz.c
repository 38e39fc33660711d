/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Kibitz (docs/api.md): the spectators' comments on a game, read and
 * written, and the players' switch that turns them off until the game
 * ends.
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

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

void api_kibitz(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
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
                                            row.kibitz ? "{\"enabled\":true}" : "{\"enabled\":false}",
                                            &row.last_event) ||
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
                       !store_event_add(s, id, "kibitz", row.ply, dump, &row.last_event) || !store_commit(s)) {
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
