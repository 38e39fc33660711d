/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tournaments in the database (store_tournaments.c): the tournaments,
 * their players' entries and the games that belong to them.  Like store.c,
 * every function takes one of the pool's connections for itself, or
 * works in the transaction its thread holds.
 */
#ifndef TTCHESS_SERVER_STORE_TOURNAMENTS_H
#define TTCHESS_SERVER_STORE_TOURNAMENTS_H

#include "server.h"
#include "tournament.h"

/* A tournament's row (strings malloc'd; store_tournament_free frees them). */
typedef struct TournamentRow {
    int64_t id;
    char *name;
    char *kind;                 /* "arena" or "round-robin"                  */
    int64_t creator;
    char *creator_name;
    char *variant, *options;    /* options may be NULL                       */
    int64_t base_ms, inc_ms;    /* live clock (arena); 0 when correspondence */
    int days_per_move;          /* correspondence (round-robin); else 0      */
    int64_t starts_at, ends_at; /* ms since the epoch; ends_at 0: when its games end */
    int minutes;                /* an arena's length                         */
    char *status;               /* "upcoming", "running", "finished"         */
} TournamentRow;

void store_tournament_free(TournamentRow *t);
/* Tells the other servers on the database that something changed
 * (PostgreSQL's NOTIFY, sent at the commit; store.c): their live streams
 * read again.  True where one server is all there is. */
bool store_notify(Store *s, const char *topic);
/* Adds the tournament (its id into t->id) with its creator's entry
 * ("joined") and the players invited ("invited"). */
bool store_tournament_add(Store *s, TournamentRow *t, const int64_t *invited, int count);
bool store_tournament_get(Store *s, int64_t id, TournamentRow *out, bool *found);
/* Inside a transaction: holds the tournament's row until the commit, so
 * that two servers neither pair nor count its players at once. */
bool store_tournament_lock(Store *s, int64_t id);
/* Tournaments not finished that the player created; -1 on an error. */
int64_t store_tournaments_open(Store *s, int64_t creator);
/* The tournaments of a status, soonest (upcoming) or latest first, at most
 * `limit`, as the list of docs/api.md. */
bool store_tournaments_list(Store *s, const char *status, int limit, json_t *out);
/* A player's entry's status (*status NULL when there is none). */
bool store_entry_status(Store *s, int64_t t, int64_t user, char **status);
bool store_entry_set(Store *s, int64_t t, int64_t user, const char *status);
/* The entries "joined" (players) of a tournament; -1 on an error. */
int64_t store_entries_joined(Store *s, int64_t t);
/* Standings' rows: name, status, score, streak, sheet, by score. */
bool store_entries(Store *s, int64_t t, json_t *out);
/* The tournament's games, newest first, at most TOURNAMENT_LIST_GAMES: id,
 * white, black, status, result.  A long arena has thousands; its stream
 * sends the list at every change. */
bool store_tournament_games(Store *s, int64_t t, json_t *out);
/* Marks a new game as the tournament's. */
bool store_game_set_tournament(Store *s, const char *game, int64_t t);
/* The tournament of a game (0: none). */
bool store_game_tournament(Store *s, const char *game, int64_t *t);
/* A player's entry's score, streak and sheet, written after a game. */
bool store_entry_sheet(Store *s, int64_t t, int64_t user, char **sheet);
bool store_entry_score(Store *s, int64_t t, int64_t user, int score, int streak, const char *sheet);
/* Tournaments whose state the clock changes at `now`: upcoming ones
 * whose start has come, arenas whose end has come, running arenas. */
bool store_tournaments_due(Store *s, int64_t now, json_t *starting, json_t *ending, json_t *running);
/* The arenas, running or finished after `ended_after`, with a game in
 * play whose first move has not come by `before` (its creation earlier),
 * and those games of one.  Only arenas running or just ended are read, so
 * that the timer's query does not grow with the tournaments of the past. */
bool store_arenas_stalled(Store *s, int64_t before, int64_t ended_after, json_t *out);
bool store_games_stalled(Store *s, int64_t t, int64_t before, json_t *out);
/* Sets the status of a tournament still at `from`; *changed false when
 * another server did it first. */
bool store_tournament_move(Store *s, int64_t t, const char *from, const char *to, bool *changed);
/* A running arena's players waiting for a game (malloc'd, *n of them). */
bool store_arena_waiting(Store *s, int64_t t, ArenaWaiting **w, int *n);
/* The user ids of the entries "joined", by when they joined. */
bool store_entries_ids(Store *s, int64_t t, int64_t **ids, int *n);
/* A round-robin's games that are not over; -1 on an error. */
int64_t store_tournament_unfinished(Store *s, int64_t t);
/* A round-robin's games as (white id, black id, result) rows. */
bool store_robin_games(Store *s, int64_t t, json_t *out);

#endif
