/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tournaments in the database (store_tournaments.h): the SQL of the
 * tournaments, entries and tournament games, in the dialect both
 * databases understand, every value a bound parameter.
 */
#include "store_tournaments.h"

#include <stdlib.h>
#include <string.h>

#include "db.h"
#include "store_rows.h"

static char *dup_cell(const DbRows *r, int row, int col)
{
    const char *v = db_text(r, row, col);
    return v ? strdup(v) : NULL;
}

void store_tournament_free(TournamentRow *t)
{
    free(t->name);
    free(t->kind);
    free(t->creator_name);
    free(t->variant);
    free(t->options);
    free(t->status);
    memset(t, 0, sizeof *t);
}

bool store_tournament_add(Store *s, TournamentRow *t, const int64_t *invited, int count)
{
    DbRows r;
    int64_t now = server_now_ms();
    if (STORE_RUN(s,
                  "INSERT INTO tournaments(name, kind, creator, variant, options, base_ms, inc_ms, days_per_move,"
                  " starts_at, minutes, ends_at, status, created)"
                  " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'upcoming', $12) RETURNING id",
                  &r, DB_S(t->name), DB_S(t->kind), DB_I(t->creator), DB_S(t->variant), DB_S(t->options),
                  DB_I(t->base_ms), DB_I(t->inc_ms), DB_I(t->days_per_move), DB_I(t->starts_at), DB_I(t->minutes),
                  DB_I(t->ends_at), DB_I(now)))
        return false;
    bool ok = r.rows == 1;
    if (ok) t->id = db_int(&r, 0, 0);
    db_rows_free(&r);
    ok = ok && store_entry_set(s, t->id, t->creator, "joined");
    for (int i = 0; ok && i < count; i++) ok = store_entry_set(s, t->id, invited[i], "invited");
    return ok;
}

#define TOURNAMENT_COLUMNS \
    "t.id, t.name, t.kind, t.creator, u.name, t.variant, t.options, t.base_ms, t.inc_ms, t.days_per_move," \
    " t.starts_at, t.minutes, t.ends_at, t.status"

static void tournament_read(const DbRows *r, int i, TournamentRow *t)
{
    t->id = db_int(r, i, 0);
    t->name = dup_cell(r, i, 1);
    t->kind = dup_cell(r, i, 2);
    t->creator = db_int(r, i, 3);
    t->creator_name = dup_cell(r, i, 4);
    t->variant = dup_cell(r, i, 5);
    t->options = dup_cell(r, i, 6);
    t->base_ms = db_int(r, i, 7);
    t->inc_ms = db_int(r, i, 8);
    t->days_per_move = (int)db_int(r, i, 9);
    t->starts_at = db_int(r, i, 10);
    t->minutes = (int)db_int(r, i, 11);
    t->ends_at = db_int(r, i, 12);
    t->status = dup_cell(r, i, 13);
}

bool store_tournament_get(Store *s, int64_t id, TournamentRow *out, bool *found)
{
    DbRows r;
    *found = false;
    memset(out, 0, sizeof *out);
    if (STORE_RUN(s, "SELECT " TOURNAMENT_COLUMNS " FROM tournaments t JOIN users u ON u.id = t.creator WHERE t.id = $1",
                  &r, DB_I(id)))
        return false;
    if (r.rows == 1) {
        tournament_read(&r, 0, out);
        *found = true;
    }
    db_rows_free(&r);
    return true;
}

bool store_tournament_lock(Store *s, int64_t id)
{
    /* SQLite has one writer at a time: its transaction holds everything. */
    if (!s->driver->notify) return true;
    return STORE_RUN(s, "SELECT id FROM tournaments WHERE id = $1 FOR UPDATE", NULL, DB_I(id)) == DB_OK;
}

int64_t store_tournaments_open(Store *s, int64_t creator)
{
    DbRows r;
    if (STORE_RUN(s, "SELECT count(*) FROM tournaments WHERE creator = $1 AND status <> 'finished'", &r,
                  DB_I(creator)))
        return -1;
    int64_t n = r.rows == 1 ? db_int(&r, 0, 0) : -1;
    db_rows_free(&r);
    return n;
}

bool store_tournaments_list(Store *s, const char *status, int limit, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT " TOURNAMENT_COLUMNS ", (SELECT count(*) FROM tournament_entries e"
                  " WHERE e.tournament = t.id AND e.status = 'joined')"
                  " FROM tournaments t JOIN users u ON u.id = t.creator WHERE t.status = $1"
                  " ORDER BY CASE WHEN $1 = 'upcoming' THEN t.starts_at ELSE -t.starts_at END, t.id DESC LIMIT $2",
                  &r, DB_S(status), DB_I(limit)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) {
        TournamentRow t;
        tournament_read(&r, i, &t);
        ok = !json_array_append_new(
            out, json_pack("{s:I, s:s?, s:s?, s:s?, s:s?, s:s?, s:I, s:I, s:I, s:I, s:i, s:I, s:s?}", "id",
                           (json_int_t)t.id, "name", t.name, "kind", t.kind, "creator", t.creator_name, "variant",
                           t.variant, "options", t.options, "base_ms", (json_int_t)t.base_ms, "inc_ms",
                           (json_int_t)t.inc_ms, "starts_at", (json_int_t)t.starts_at, "ends_at",
                           (json_int_t)t.ends_at, "days_per_move", t.days_per_move, "players",
                           (json_int_t)db_int(&r, i, 14), "status", t.status));
        store_tournament_free(&t);
    }
    db_rows_free(&r);
    return ok;
}

bool store_entry_status(Store *s, int64_t t, int64_t user, char **status)
{
    DbRows r;
    *status = NULL;
    if (STORE_RUN(s, "SELECT status FROM tournament_entries WHERE tournament = $1 AND user_id = $2", &r, DB_I(t),
                  DB_I(user)))
        return false;
    bool ok = true;
    if (r.rows == 1) ok = (*status = dup_cell(&r, 0, 0)) != NULL;
    db_rows_free(&r);
    return ok;
}

bool store_entry_set(Store *s, int64_t t, int64_t user, const char *status)
{
    return STORE_RUN(s,
                     "INSERT INTO tournament_entries(tournament, user_id, status, joined) VALUES ($1, $2, $3, $4)"
                     " ON CONFLICT (tournament, user_id) DO UPDATE SET status = $3",
                     NULL, DB_I(t), DB_I(user), DB_S(status), DB_I(server_now_ms())) == DB_OK;
}

int64_t store_entries_joined(Store *s, int64_t t)
{
    DbRows r;
    if (STORE_RUN(s, "SELECT count(*) FROM tournament_entries WHERE tournament = $1 AND status = 'joined'", &r,
                  DB_I(t)))
        return -1;
    int64_t n = r.rows == 1 ? db_int(&r, 0, 0) : -1;
    db_rows_free(&r);
    return n;
}

bool store_entries(Store *s, int64_t t, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT u.name, e.status, e.score, e.streak, e.sheet, e.user_id FROM tournament_entries e"
                  " JOIN users u ON u.id = e.user_id WHERE e.tournament = $1"
                  " ORDER BY e.score DESC, e.joined, e.user_id",
                  &r, DB_I(t)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++)
        ok = !json_array_append_new(out, json_pack("{s:s?, s:s?, s:I, s:I, s:s?, s:I}", "name", db_text(&r, i, 0),
                                                   "status", db_text(&r, i, 1), "score",
                                                   (json_int_t)db_int(&r, i, 2), "streak",
                                                   (json_int_t)db_int(&r, i, 3), "sheet", db_text(&r, i, 4), "id",
                                                   (json_int_t)db_int(&r, i, 5)));
    db_rows_free(&r);
    return ok;
}

bool store_tournament_games(Store *s, int64_t t, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT g.id, w.name, b.name, g.status, g.result FROM games g"
                  " JOIN users w ON w.id = g.white JOIN users b ON b.id = g.black"
                  " WHERE g.tournament = $1 ORDER BY g.created DESC, g.id LIMIT $2",
                  &r, DB_I(t), DB_I(TOURNAMENT_LIST_GAMES)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++)
        ok = !json_array_append_new(out, json_pack("{s:s?, s:s?, s:s?, s:s?, s:s?}", "id", db_text(&r, i, 0),
                                                   "white", db_text(&r, i, 1), "black", db_text(&r, i, 2), "status",
                                                   db_text(&r, i, 3), "result", db_text(&r, i, 4)));
    db_rows_free(&r);
    return ok;
}

bool store_game_set_tournament(Store *s, const char *game, int64_t t)
{
    return STORE_RUN(s, "UPDATE games SET tournament = $1 WHERE id = $2", NULL, DB_I(t), DB_S(game)) == DB_OK;
}

bool store_game_tournament(Store *s, const char *game, int64_t *t)
{
    DbRows r;
    *t = 0;
    if (STORE_RUN(s, "SELECT tournament FROM games WHERE id = $1", &r, DB_S(game))) return false;
    if (r.rows == 1 && db_text(&r, 0, 0)) *t = db_int(&r, 0, 0);
    db_rows_free(&r);
    return true;
}

bool store_entry_sheet(Store *s, int64_t t, int64_t user, char **sheet)
{
    DbRows r;
    *sheet = NULL;
    if (STORE_RUN(s, "SELECT sheet FROM tournament_entries WHERE tournament = $1 AND user_id = $2", &r, DB_I(t),
                  DB_I(user)))
        return false;
    bool ok = r.rows == 1 && (*sheet = dup_cell(&r, 0, 0)) != NULL;
    db_rows_free(&r);
    return ok;
}

bool store_entry_score(Store *s, int64_t t, int64_t user, int score, int streak, const char *sheet)
{
    return STORE_RUN(s,
                     "UPDATE tournament_entries SET score = $1, streak = $2, sheet = $3"
                     " WHERE tournament = $4 AND user_id = $5",
                     NULL, DB_I(score), DB_I(streak), DB_S(sheet), DB_I(t), DB_I(user)) == DB_OK;
}

/* The ids of a query's first column into a JSON array. */
static bool ids_into(Store *s, const char *sql, int64_t now, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s, sql, &r, DB_I(now))) return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) ok = !json_array_append_new(out, json_integer(db_int(&r, i, 0)));
    db_rows_free(&r);
    return ok;
}

bool store_tournaments_due(Store *s, int64_t now, json_t *starting, json_t *ending, json_t *running)
{
    return ids_into(s, "SELECT id FROM tournaments WHERE status = 'upcoming' AND starts_at <= $1", now, starting) &&
           ids_into(s,
                    "SELECT id FROM tournaments WHERE status = 'running' AND kind = 'arena' AND ends_at <= $1",
                    now, ending) &&
           ids_into(s,
                    "SELECT id FROM tournaments WHERE status = 'running' AND kind = 'arena' AND ends_at > $1",
                    now, running);
}

bool store_arenas_stalled(Store *s, int64_t before, int64_t ended_after, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT DISTINCT t.id FROM tournaments t JOIN games g ON g.tournament = t.id"
                  " WHERE t.kind = 'arena' AND (t.status = 'running' OR (t.status = 'finished' AND t.ends_at > $2))"
                  " AND g.status = 'active' AND g.last_action_at = 0 AND g.created < $1",
                  &r, DB_I(before), DB_I(ended_after)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) ok = !json_array_append_new(out, json_integer(db_int(&r, i, 0)));
    db_rows_free(&r);
    return ok;
}

bool store_games_stalled(Store *s, int64_t t, int64_t before, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s,
                  "SELECT id FROM games WHERE tournament = $1 AND status = 'active' AND last_action_at = 0"
                  " AND created < $2",
                  &r, DB_I(t), DB_I(before)))
        return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++) ok = !json_array_append_new(out, json_string(db_text(&r, i, 0)));
    db_rows_free(&r);
    return ok;
}

bool store_tournament_move(Store *s, int64_t t, const char *from, const char *to, bool *changed)
{
    DbRows r;
    *changed = false;
    if (STORE_RUN(s, "UPDATE tournaments SET status = $1 WHERE id = $2 AND status = $3 RETURNING id", &r, DB_S(to),
                  DB_I(t), DB_S(from)))
        return false;
    *changed = r.rows == 1;
    db_rows_free(&r);
    return true;
}

bool store_arena_waiting(Store *s, int64_t t, ArenaWaiting **w, int *n)
{
    DbRows r;
    *w = NULL;
    *n = 0;
    if (STORE_RUN(s,
                  "SELECT e.user_id, e.score,"
                  " (SELECT CASE WHEN g.white = e.user_id THEN g.black ELSE g.white END FROM games g"
                  "   WHERE g.tournament = $1 AND (g.white = e.user_id OR g.black = e.user_id)"
                  "   ORDER BY g.created DESC, g.id LIMIT 1),"
                  " (SELECT count(*) FROM games g WHERE g.tournament = $1 AND g.white = e.user_id),"
                  " (SELECT count(*) FROM games g WHERE g.tournament = $1 AND g.black = e.user_id)"
                  " FROM tournament_entries e WHERE e.tournament = $1 AND e.status = 'joined' AND NOT EXISTS"
                  " (SELECT 1 FROM games g WHERE g.tournament = $1 AND g.status = 'active'"
                  "   AND (g.white = e.user_id OR g.black = e.user_id))",
                  &r, DB_I(t)))
        return false;
    *w = calloc((size_t)(r.rows ? r.rows : 1), sizeof **w);
    bool ok = *w != NULL;
    for (int i = 0; ok && i < r.rows; i++)
        (*w)[i] = (ArenaWaiting){ .id = db_int(&r, i, 0),
                                  .score = (int)db_int(&r, i, 1),
                                  .last_opponent = db_text(&r, i, 2) ? db_int(&r, i, 2) : 0,
                                  .whites = (int)db_int(&r, i, 3),
                                  .blacks = (int)db_int(&r, i, 4) };
    if (ok) *n = r.rows;
    db_rows_free(&r);
    return ok;
}

bool store_entries_ids(Store *s, int64_t t, int64_t **ids, int *n)
{
    DbRows r;
    *ids = NULL;
    *n = 0;
    if (STORE_RUN(s,
                  "SELECT user_id FROM tournament_entries WHERE tournament = $1 AND status = 'joined'"
                  " ORDER BY joined, user_id",
                  &r, DB_I(t)))
        return false;
    *ids = calloc((size_t)(r.rows ? r.rows : 1), sizeof **ids);
    bool ok = *ids != NULL;
    for (int i = 0; ok && i < r.rows; i++) (*ids)[i] = db_int(&r, i, 0);
    if (ok) *n = r.rows;
    db_rows_free(&r);
    return ok;
}

int64_t store_tournament_unfinished(Store *s, int64_t t)
{
    DbRows r;
    if (STORE_RUN(s, "SELECT count(*) FROM games WHERE tournament = $1 AND status <> 'over'", &r, DB_I(t)))
        return -1;
    int64_t n = r.rows == 1 ? db_int(&r, 0, 0) : -1;
    db_rows_free(&r);
    return n;
}

bool store_robin_games(Store *s, int64_t t, json_t *out)
{
    DbRows r;
    if (STORE_RUN(s, "SELECT white, black, result FROM games WHERE tournament = $1", &r, DB_I(t))) return false;
    bool ok = true;
    for (int i = 0; ok && i < r.rows; i++)
        ok = !json_array_append_new(out, json_pack("{s:I, s:I, s:s?}", "white", (json_int_t)db_int(&r, i, 0),
                                                   "black", (json_int_t)db_int(&r, i, 1), "result",
                                                   db_text(&r, i, 2)));
    db_rows_free(&r);
    return ok;
}
