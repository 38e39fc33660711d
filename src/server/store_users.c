/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The SQL of players' pages, the archive and account deletion
 * (store_users.h).  The listings have one statement each, whatever the
 * filters: a filter left out is an empty string or a zero that its
 * condition lets through, so that a driver prepares each statement once
 * and no SQL is ever built from what a client sent.
 */
#include "store_users.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "store_rows.h"

/* One statement on a connection of the pool, taken and given back. */
static DbStatus run(Store *s, const char *sql, const DbValue *params, int count, DbRows *rows)
{
    store_enter(s);
    DbStatus st = s->driver->run(store_connection_held(s), sql, params, count, rows);
    store_leave(s);
    return st;
}

#define RUN(s, sql, rows, ...) \
    run(s, sql, (DbValue[]){ __VA_ARGS__ }, (int)(sizeof((DbValue[]){ __VA_ARGS__ }) / sizeof(DbValue)), rows)

bool store_player(Store *s, const char *name, Player *out, bool *found)
{
    DbRows r;
    if (RUN(s, "SELECT id, name, created FROM users WHERE lower(name) = lower($1) AND deleted = 0", &r, DB_S(name)))
        return false;
    *found = r.rows == 1;
    if (*found) {
        out->id = db_int(&r, 0, 0);
        snprintf(out->name, sizeof out->name, "%s", db_text(&r, 0, 1));
        out->created = db_int(&r, 0, 2);
    }
    db_rows_free(&r);
    return true;
}

/* The player's result in a finished game, as SQL: the games whose result
 * `$4` is ("won", "drawn", "lost"; "" lets all through). */
#define RESULT_IS                                                                         \
    "($4 = '' OR ($4 = 'drawn' AND result = '1/2-1/2') OR "                               \
    "($4 = 'won' AND ((white = $1 AND result = '1-0') OR (black = $1 AND result = '0-1'))) OR " \
    "($4 = 'lost' AND ((white = $1 AND result = '0-1') OR (black = $1 AND result = '1-0'))))"

bool store_player_games(Store *s, int64_t user, const GameFilter *f, PlayerGame **games, int *count)
{
    *games = NULL;
    *count = 0;
    DbRows r;
    /* The page's games are picked first, by their ids, and only then read
     * whole: the row's computed columns (the names, the count of actions)
     * are worked out for the page alone.  Each seat is one range of its
     * index (games_white_created, games_black_created: seat, created, id)
     * read backwards from the page's start, and stops when the page is
     * full: a page costs the same at the millionth game as at the first.
     * PostgreSQL gives a parameter the type of its first use: each is
     * compared with its column before it is compared with a constant. */
#define PAGE_OF(seat, other)                                                                                  \
    "SELECT id, created FROM (SELECT id, created FROM games WHERE " seat " = $1 AND " other " <> $1 "        \
    "AND created <= $6 AND (created < $6 OR id < $7) AND status = $2 AND (variant = $3 OR $3 = '') AND "   \
    RESULT_IS " AND (" other " = $5 OR $5 = 0) AND (rated = $9 OR (rated = 2 AND $9 = 1) OR $9 = -1) ORDER BY created DESC, id DESC LIMIT $8) " seat "_page"
    const char *sql = game_select_sql(", g.created FROM games g WHERE g.id IN (SELECT id FROM (" PAGE_OF(
        "white", "black") " UNION ALL " PAGE_OF("black", "white") ") seats ORDER BY created DESC, id DESC LIMIT $8) "
                                      "ORDER BY g.created DESC, g.id DESC");
#undef PAGE_OF
    /* The rated column is 0 for a casual game, 1 for a rated one and 2
     * for a rated one already counted (store_ratings.c); $9 is -1 for
     * both. */
    int rated = f->rated == GAMES_RATED ? 1 : f->rated == GAMES_CASUAL ? 0 : -1;
    /* No start: the page starts after every game (no id is above "~"). */
    int64_t until = f->until ? f->until : INT64_MAX;
    const char *after_id = f->until ? f->after_id : "~";
    if (!sql || RUN(s, sql, &r, DB_I(user), DB_S(f->status), DB_S(f->variant), DB_S(f->result), DB_I(f->opponent),
                    DB_I(until), DB_S(after_id), DB_I(f->max), DB_I(rated)))
        return false;
    *games = calloc(r.rows ? (size_t)r.rows : 1, sizeof **games);
    if (*games) {
        for (int i = 0; i < r.rows; i++) {
            game_row_read(&r, i, &(*games)[i].row);
            (*games)[i].created = db_int(&r, i, GAME_ROW_COLUMNS);
        }
        *count = r.rows;
    }
    db_rows_free(&r);
    return *games != NULL;
}

void store_player_games_free(PlayerGame *games, int count)
{
    for (int i = 0; games && i < count; i++) store_game_free(&games[i].row);
    free(games);
}

bool store_player_stats(Store *s, int64_t user, json_t *out)
{
    DbRows r;
    if (RUN(s,
            "SELECT variant, COUNT(*), "
            "SUM(CASE WHEN (white = $1 AND result = '1-0') OR (black = $1 AND result = '0-1') THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN result = '1/2-1/2' THEN 1 ELSE 0 END), "
            "SUM(CASE WHEN (white = $1 AND result = '0-1') OR (black = $1 AND result = '1-0') THEN 1 ELSE 0 END) "
            "FROM games WHERE (white = $1 OR black = $1) AND status = 'over' GROUP BY variant ORDER BY variant",
            &r, DB_I(user)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        json_t *e = json_pack("{s:I, s:I, s:I, s:I}", "played", (json_int_t)db_int(&r, i, 1), "won",
                              (json_int_t)db_int(&r, i, 2), "drawn", (json_int_t)db_int(&r, i, 3), "lost",
                              (json_int_t)db_int(&r, i, 4));
        ok = e && !json_object_set_new(out, db_text(&r, i, 0), e);
    }
    db_rows_free(&r);
    return ok;
}

bool store_account_delete(Store *s, int64_t user)
{
    /* The hash is emptied (no password matches it, and a stolen database
     * holds none), and store_user_hash no longer finds the name. */
    return RUN(s, "UPDATE users SET deleted = 1, hash = '' WHERE id = $1", NULL, DB_I(user)) == DB_OK &&
           RUN(s, "DELETE FROM sessions WHERE user_id = $1", NULL, DB_I(user)) == DB_OK &&
           RUN(s, "DELETE FROM api_tokens WHERE user_id = $1", NULL, DB_I(user)) == DB_OK &&
           RUN(s, "DELETE FROM blocks WHERE user_id = $1", NULL, DB_I(user)) == DB_OK &&
           /* No address is kept of a deleted account, nor its mails. */
           RUN(s, "DELETE FROM emails WHERE user_id = $1", NULL, DB_I(user)) == DB_OK &&
           RUN(s, "DELETE FROM mail_queue WHERE user_id = $1", NULL, DB_I(user)) == DB_OK &&
           RUN(s,
               "UPDATE games SET status = 'declined', reason = 'the account was deleted', version = version + 1 "
               "WHERE creator = $1 AND status IN ('waiting', 'seek', 'challenge')",
               NULL, DB_I(user)) == DB_OK;
}
