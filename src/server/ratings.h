/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Ratings (docs/api.md, "Ratings"): the players' Glicko-2 ratings
 * (glicko2.c) per variant and speed, kept by store_ratings.c and served
 * by api_ratings.c.
 */
#ifndef TTCHESS_SERVER_RATINGS_H
#define TTCHESS_SERVER_RATINGS_H

#include "server.h"

/* The leaderboards' length (docs/api.md, "Ratings"). */
enum { RATINGS_LEADERBOARD_DEFAULT = 50, RATINGS_LEADERBOARD_MAX = 200 };
/* A rated game that ends with fewer actions than this (an abandonment,
 * a resignation before each side has moved) changes no rating. */
enum { RATINGS_MIN_ACTIONS = 2 };

/* "live" for a game with a live clock, else "correspondence". */
const char *ratings_speed(const GameRow *g);

/* Called by store_game_update after each write of a row: when the row is
 * a rated game over and not yet counted, counts it (both players'
 * ratings, their history) in the open transaction; true when there was
 * nothing to do.  The row's version, checked by the write, and the mark
 * "counted" (rated 2) make it once, on one server or on several. */
bool store_ratings_settle(Store *s, const GameRow *g);

/* A player by name: *id 0 when there is none; their name as registered
 * and when. */
bool store_user_public(Store *s, const char *name, int64_t *id, char **proper, int64_t *created);
/* The player's ratings as {"<variant>": {"<speed>": {"rating", "rd",
 * "games", "provisional"}}} into the object out. */
bool store_ratings_of(Store *s, int64_t user, json_t *out);
/* The player's rating after each rated game of a variant and speed,
 * oldest first: [{"game", "at", "rating", "rd"}] into the array out. */
bool store_rating_history(Store *s, int64_t user, const char *variant, const char *speed, json_t *out);
/* The best `max` players not provisional of a variant and speed:
 * [{"name", "rating", "rd", "games"}] into the array out. */
bool store_leaderboard(Store *s, const char *variant, const char *speed, int max, json_t *out);
#endif
