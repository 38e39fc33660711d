/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The ratings' SQL (ratings.h): a rated game counted when it ends, a
 * player's ratings and their history, the leaderboards.  The rating
 * period is one game, as lichess's: each player's Glicko-2 rating is
 * updated against the opponent's rating before the game.
 */
#include "ratings.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "glicko2.h"
#include "store_rows.h"

const char *ratings_speed(const GameRow *g)
{
    return g->base_ms > 0 ? "live" : "correspondence";
}

/* White's score from the result line's first word, or -1 when it is no
 * result ("*"). */
static double white_score(const char *result)
{
    if (!result) return -1;
    if (!strncmp(result, "1-0", 3)) return 1;
    if (!strncmp(result, "0-1", 3)) return 0;
    if (!strncmp(result, "1/2-1/2", 7)) return 0.5;
    return -1;
}

/* A rating read from the database, or a new player's; *games its count. */
static bool rating_read(Store *s, int64_t user, const char *variant, const char *speed, Glicko2 *out, int64_t *games)
{
    DbRows r;
    if (STORE_RUN(s, "SELECT rating, rd, volatility, games FROM ratings WHERE user_id = $1 AND variant = $2 AND speed = $3",
                  &r, DB_I(user), DB_S(variant), DB_S(speed)))
        return false;
    *out = glicko2_initial();
    *games = 0;
    if (r.rows == 1) {
        *out = (Glicko2){ strtod(db_text(&r, 0, 0), NULL), strtod(db_text(&r, 0, 1), NULL),
                          strtod(db_text(&r, 0, 2), NULL) };
        *games = db_int(&r, 0, 3);
    }
    db_rows_free(&r);
    return true;
}

/* A number's text as a parameter (a pointer, where DB_S would be given
 * an array). */
static DbValue number_value(const char *text)
{
    return DB_S(text);
}

/* The new rating written, with its line in the history.  Numbers go to
 * the database as text with every digit a double has (db.h binds text
 * and integers; both databases read it as the column's type). */
static bool rating_write(Store *s, int64_t user, const GameRow *g, Glicko2 next, int64_t now)
{
    char rating[32], rd[32], volatility[32];
    snprintf(rating, sizeof rating, "%.17g", next.rating);
    snprintf(rd, sizeof rd, "%.17g", next.rd);
    snprintf(volatility, sizeof volatility, "%.17g", next.volatility);
    const char *speed = ratings_speed(g);
    return STORE_RUN(s,
                     "INSERT INTO ratings(user_id, variant, speed, rating, rd, volatility, games, updated) "
                     "VALUES ($1, $2, $3, $4, $5, $6, 1, $7) ON CONFLICT (user_id, variant, speed) DO UPDATE SET "
                     "rating = $4, rd = $5, volatility = $6, games = ratings.games + 1, updated = $7",
                     NULL, DB_I(user), DB_S(g->variant), DB_S(speed), number_value(rating), number_value(rd), number_value(volatility),
                     DB_I(now)) == DB_OK &&
           STORE_RUN(s,
                     "INSERT INTO rating_history(user_id, variant, speed, game_id, rating, rd, at) "
                     "VALUES ($1, $2, $3, $4, $5, $6, $7)",
                     NULL, DB_I(user), DB_S(g->variant), DB_S(speed), DB_S(g->id), number_value(rating), number_value(rd),
                     DB_I(now)) == DB_OK;
}

/* Both players' ratings after the game, each against the other's rating
 * before it.  Their users' rows are locked first, the lower id first, so
 * that two games of one player ending at once on two servers count one
 * after the other (SQLite has one writer: the lock is a no-op there). */
static bool count_game(Store *s, const GameRow *g, double score)
{
    const char *speed = ratings_speed(g);
    int64_t low = g->white < g->black ? g->white : g->black, high = g->white < g->black ? g->black : g->white;
    Glicko2 white, black;
    int64_t games;
    if (!store_lock_user(s, low) || !store_lock_user(s, high) ||
        !rating_read(s, g->white, g->variant, speed, &white, &games) ||
        !rating_read(s, g->black, g->variant, speed, &black, &games))
        return false;
    Glicko2Game white_game = { black.rating, black.rd, score }, black_game = { white.rating, white.rd, 1 - score };
    int64_t now = server_now_ms();
    return rating_write(s, g->white, g, glicko2_update(white, &white_game, 1, GLICKO2_TAU), now) &&
           rating_write(s, g->black, g, glicko2_update(black, &black_game, 1, GLICKO2_TAU), now);
}

bool store_ratings_settle(Store *s, const GameRow *g)
{
    if (g->rated != 1 || !g->status || strcmp(g->status, "over") || g->white <= 0 || g->black <= 0) return true;
    /* The mark first: of two writers of the same end (which the row's
     * version already keeps apart), only the one that changes it counts. */
    DbRows r;
    if (STORE_RUN(s, "UPDATE games SET rated = 2 WHERE id = $1 AND rated = 1 RETURNING id", &r, DB_S(g->id)))
        return false;
    bool mine = r.rows == 1;
    db_rows_free(&r);
    double score = white_score(g->result);
    if (!mine || score < 0 || g->ply < RATINGS_MIN_ACTIONS) return true;
    return count_game(s, g, score);
}

/* ---- Reading ------------------------------------------------------------ */

bool store_user_public(Store *s, const char *name, int64_t *id, char **proper, int64_t *created)
{
    *id = 0;
    *proper = NULL;
    DbRows r;
    if (STORE_RUN(s, "SELECT id, name, created FROM users WHERE lower(name) = lower($1)", &r, DB_S(name)))
        return false;
    bool ok = true;
    if (r.rows == 1) {
        *proper = strdup(db_text(&r, 0, 1));
        ok = *proper != NULL;
        *id = ok ? db_int(&r, 0, 0) : 0;
        *created = db_int(&r, 0, 2);
    }
    db_rows_free(&r);
    return ok;
}

/* A rating as the API shows it: whole numbers, and whether provisional. */
static json_t *rating_json(const DbRows *r, int row, int col)
{
    double rating = strtod(db_text(r, row, col), NULL), rd = strtod(db_text(r, row, col + 1), NULL);
    return json_pack("{s:I, s:I, s:I, s:b}", "rating", (json_int_t)lround(rating), "rd", (json_int_t)lround(rd),
                     "games", (json_int_t)db_int(r, row, col + 2), "provisional", glicko2_provisional(rd));
}

bool store_ratings_of(Store *s, int64_t user, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s, "SELECT variant, speed, rating, rd, games FROM ratings WHERE user_id = $1 ORDER BY variant, speed",
                  &r, DB_I(user)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        const char *variant = db_text(&r, i, 0);
        json_t *speeds = json_object_get(out, variant);
        if (!speeds) ok = !json_object_set_new(out, variant, speeds = json_object());
        ok = ok && speeds && !json_object_set_new(speeds, db_text(&r, i, 1), rating_json(&r, i, 2));
    }
    db_rows_free(&r);
    return ok;
}

bool store_rating_history(Store *s, int64_t user, const char *variant, const char *speed, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT game_id, at, rating, rd FROM rating_history WHERE user_id = $1 AND variant = $2 "
                  "AND speed = $3 ORDER BY id",
                  &r, DB_I(user), DB_S(variant), DB_S(speed)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++)
        ok = !json_array_append_new(
            out, json_pack("{s:s, s:I, s:I, s:I}", "game", db_text(&r, i, 0), "at", (json_int_t)db_int(&r, i, 1),
                           "rating", (json_int_t)lround(strtod(db_text(&r, i, 2), NULL)), "rd",
                           (json_int_t)lround(strtod(db_text(&r, i, 3), NULL))));
    db_rows_free(&r);
    return ok;
}

bool store_leaderboard(Store *s, const char *variant, const char *speed, int max, json_t *out)
{
    DbRows r;
    char provisional[32];
    snprintf(provisional, sizeof provisional, "%.17g", GLICKO2_PROVISIONAL_RD);
    if (STORE_RUN(s,
                  "SELECT u.name, r.rating, r.rd, r.games FROM ratings r JOIN users u ON u.id = r.user_id "
                  "WHERE r.variant = $1 AND r.speed = $2 AND r.rd <= $3 ORDER BY r.rating DESC, u.id LIMIT $4",
                  &r, DB_S(variant), DB_S(speed), number_value(provisional), DB_I(max)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        json_t *line = rating_json(&r, i, 1);
        ok = line && !json_object_set_new(line, "name", json_string(db_text(&r, i, 0))) &&
             !json_object_del(line, "provisional") && !json_array_append_new(out, line);
    }
    db_rows_free(&r);
    return ok;
}
