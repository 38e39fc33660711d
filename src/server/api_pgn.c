/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The PGN download (GET /api/games/ID/pgn, docs/api.md): the game's
 * record as a site gives it, a file named ttchess-ID.pgn whose tags say
 * where and when it was played, by whom, which game and with what clock,
 * and, in a live game, the mover's time left after each action as a
 * "[%clk H:MM:SS]" comment, which lichess and the PGN viewers read.
 */
#include "api_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pgn.h"

/* A "%clk" comment for `ms` left: whole seconds, as PGN readers expect
 * them, rounded down, so that a clock never looks fuller than it was. */
static char *clock_comment(int64_t ms)
{
    int64_t s = ms > 0 ? ms / 1000 : 0;
    char buf[48];
    snprintf(buf, sizeof buf, "[%%clk %lld:%02d:%02d]", (long long)(s / 3600), (int)(s / 60 % 60), (int)(s % 60));
    return strdup(buf);
}

/* The clocks after each action, read from the game's events: an action's
 * event carries the clocks once it was played (api_actions.c,
 * stamp_clock).  A later event at the same ply (after a take-back) wins,
 * so that the comments are the played line's.  comments[i] is malloc'd or
 * NULL; false on a database error. */
static bool clock_comments(Store *s, const GameRow *row, const Game *g, char **comments)
{
    json_t *events = json_array();
    if (!events || !store_events_after(s, row->id, 0, events)) {
        json_decref(events);
        return false;
    }
    size_t k;
    json_t *e;
    json_array_foreach(events, k, e) {
        json_int_t ply = json_integer_value(json_object_get(e, "ply"));
        if (strcmp(json_string_value(json_object_get(e, "type")), "action") || ply < 1 || ply >= game_count(g))
            continue;
        json_t *data = json_loads(json_string_value(json_object_get(e, "data")), 0, NULL);
        json_t *clock = json_object_get(data, "clock");
        const char *kind = json_string_value(json_object_get(clock, "kind"));
        if (kind && !strcmp(kind, "live")) {
            /* The mover is the side to move before the action. */
            bool white = game_node(g, (int)ply - 1)->state->board.side == WHITE;
            free(comments[ply]);
            comments[ply] = clock_comment(json_integer_value(json_object_get(clock, white ? "white_ms" : "black_ms")));
        }
        json_decref(data);
    }
    json_decref(events);
    return true;
}

/* The tags a site writes: "2026.11.26" for Date, "300+2" (seconds) for a
 * live TimeControl and "-" for none, as PGN's standard spells them; a
 * correspondence game's days a move go in a tag of their own. */
static bool site_tags(Store *s, const char *origin, const GameRow *row, PgnHeader *h)
{
    int64_t created = 0;
    if (!store_game_created(s, row->id, &created)) return false;
    char date[16] = "????.??.??", site[320], control[48];
    time_t t = (time_t)(created / 1000);
    struct tm tm;
    if (created > 0 && gmtime_r(&t, &tm)) strftime(date, sizeof date, "%Y.%m.%d", &tm);
    snprintf(site, sizeof site, "%s/games/%s", origin ? origin : "", row->id);
    if (row->base_ms) snprintf(control, sizeof control, "%lld+%lld", (long long)(row->base_ms / 1000),
                               (long long)(row->inc_ms / 1000));
    else snprintf(control, sizeof control, "-");
    bool ok = pgn_set_tag(h, "Event", "ttchess game") && pgn_set_tag(h, "Site", site) && pgn_set_tag(h, "Date", date) &&
              pgn_set_tag(h, "White", row->white == -1 ? "ttchess engine" : row->white_name ? row->white_name : "?") &&
              pgn_set_tag(h, "Black", row->black == -1 ? "ttchess engine" : row->black_name ? row->black_name : "?") &&
              pgn_set_tag(h, "TimeControl", control);
    if (ok && created > 0 && gmtime_r(&t, &tm)) {
        char clock_time[16];
        strftime(clock_time, sizeof clock_time, "%H:%M:%S", &tm);
        ok = pgn_set_tag(h, "UTCDate", date) && pgn_set_tag(h, "UTCTime", clock_time);
    }
    if (ok && row->days_per_move) {
        char days[16];
        snprintf(days, sizeof days, "%d", row->days_per_move);
        ok = pgn_set_tag(h, "DaysPerMove", days);
    }
    return ok;
}

/* The game's PGN, as the download gives it, added to `out`; false with
 * *status 503 (the database) or 500 (memory). */
bool game_pgn(Store *s, const char *site, const GameRow *row, const Game *g, Text *out, int *status)
{
    int n = game_count(g);
    char **comments = calloc((size_t)n, sizeof *comments);
    PgnHeader h;
    pgn_header_init(&h);
    bool read = comments && site_tags(s, site, row, &h) && (!row->base_ms || clock_comments(s, row, g, comments));
    bool ok = read && pgn_write_annotated(g, &h, (const char *const *)comments, out);
    *status = comments && !read ? 503 : 500;
    for (int i = 0; comments && i < n; i++) free(comments[i]);
    free(comments);
    pgn_header_free(&h);
    return ok;
}

void api_pgn(Store *s, const ApiRequest *req, const char *id, ApiReply *r)
{
    GameRow row;
    Game g;
    if (!load_game(s, id, &row, &g, r)) return;
    Text out = TEXT_INIT;
    int status;
    if (game_pgn(s, req->site, &row, &g, &out, &status)) {
        reply_text(r, 200, "application/vnd.chess-pgn; charset=utf-8", text_take(&out));
        /* The id is letters and digits only (store.c makes it), safe in a
         * quoted file name. */
        char disposition[128];
        snprintf(disposition, sizeof disposition, "attachment; filename=\"ttchess-%s.pgn\"", id);
        r->disposition = strdup(disposition);
    } else {
        reply_error(r, status, status == 503 ? "the database cannot be read now" : "out of memory");
    }
    text_free(&out);
    cache_put(s->cache, id, row.version, &g);
    store_game_free(&row);
}
