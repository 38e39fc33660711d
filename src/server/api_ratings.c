/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ratings' handlers (docs/api.md, "Ratings"): a player's public
 * profile with their ratings, a rating's history for the charts, and the
 * leaderboards of each variant and speed.
 */
#include "api_internal.h"

#include <stdlib.h>
#include <string.h>

#include "ratings.h"
#include "registry.h"

/* The query's argument, or NULL. */
static const char *query_arg(const ApiRequest *req, const char *name)
{
    return req->query ? req->query(req->query_ctx, name) : NULL;
}

/* A variant and speed from the request, checked: false after a 400 reply
 * that lists what is allowed. */
static bool read_board(const char *variant, const char *speed, ApiReply *r)
{
    if (!variant || !variant_find(variant)) {
        Text names = TEXT_INIT, why = TEXT_INIT;
        variant_names(&names);
        text_addf(&why, "give a variant: %s", text_str(&names));
        reply_error(r, 400, text_str(&why));
        text_free(&names);
        text_free(&why);
        return false;
    }
    if (!speed || (strcmp(speed, "live") && strcmp(speed, "correspondence")))
        return reply_error(r, 400, "the speed is \"live\" or \"correspondence\""), false;
    return true;
}

/* The player of the path's name: false after a 404 (or 503) reply. */
static bool find_player(Store *s, const char *name, int64_t *id, char **proper, int64_t *created, ApiReply *r)
{
    if (!store_user_public(s, name, id, proper, created)) return reply_error(r, 503, "the database cannot be read now"), false;
    if (!*id) return reply_error(r, 404, "no player of that name"), false;
    return true;
}

void api_user(Store *s, const char *name, ApiReply *r)
{
    int64_t id, created = 0;
    char *proper = NULL;
    if (!find_player(s, name, &id, &proper, &created, r)) return;
    json_t *ratings = json_object();
    if (ratings && store_ratings_of(s, id, ratings))
        reply_json(r, 200, json_pack("{s:s, s:o, s:I}", "name", proper, "ratings", ratings, "created", (json_int_t)created));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(ratings);
    free(proper);
}

void api_rating_history(Store *s, const ApiRequest *req, const char *name, ApiReply *r)
{
    const char *variant = query_arg(req, "variant"), *speed = query_arg(req, "speed");
    int64_t id, created;
    char *proper = NULL;
    if (!read_board(variant, speed, r) || !find_player(s, name, &id, &proper, &created, r)) return;
    json_t *list = json_array();
    /* An object around the list, as every reply of the API is one. */
    if (list && store_rating_history(s, id, variant_find(variant)->name, speed, list))
        reply_json(r, 200, json_pack("{s:s, s:s, s:s, s:o}", "name", proper, "variant", variant_find(variant)->name,
                                     "speed", speed, "history", list));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(list);
    free(proper);
}

/* ?max=: 1 to RATINGS_LEADERBOARD_MAX, default RATINGS_LEADERBOARD_DEFAULT;
 * -1 after a 400 reply. */
static int read_max(const ApiRequest *req, ApiReply *r)
{
    const char *text = query_arg(req, "max");
    if (!text) return RATINGS_LEADERBOARD_DEFAULT;
    char *end = NULL;
    long max = strtol(text, &end, 10);
    if (*text && !*end && max >= 1 && max <= RATINGS_LEADERBOARD_MAX) return (int)max;
    char why[96];
    snprintf(why, sizeof why, "max is a whole number from 1 to %d", RATINGS_LEADERBOARD_MAX);
    reply_error(r, 400, why);
    return -1;
}

void api_leaderboard(Store *s, const ApiRequest *req, const char *variant, const char *speed, ApiReply *r)
{
    int max = read_max(req, r);
    if (max < 0 || !read_board(variant, speed, r)) return;
    json_t *list = json_array();
    if (list && store_leaderboard(s, variant_find(variant)->name, speed, max, list))
        reply_json(r, 200, json_pack("{s:s, s:s, s:o}", "variant", variant_find(variant)->name, "speed", speed, "players", list));
    else reply_error(r, 503, "the database cannot be read now"), json_decref(list);
}
