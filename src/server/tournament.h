/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tournaments' rules as pure functions (tournament.c), apart from the
 * database and the requests, so that the unit tests check them alone:
 * an arena's scores (lichess's: 2 points a win, 1 a draw, doubled on a
 * streak) and pairings, a round-robin's schedule and standings with the
 * Sonneborn-Berger tie-break.
 */
#ifndef TTCHESS_SERVER_TOURNAMENT_H
#define TTCHESS_SERVER_TOURNAMENT_H

#include <stdbool.h>
#include <stdint.h>

/* The most players of each kind: an arena's pairing reads them all at
 * every tick, a round-robin plays n(n-1) games at once. */
enum { TOURNAMENT_MAX_ARENA = 100, TOURNAMENT_MAX_ROBIN = 10 };
/* The games a tournament's state lists, the newest (a round-robin of 10
 * has 90; a long arena thousands). */
enum { TOURNAMENT_LIST_GAMES = 100 };

/* A player's sheet is a letter a finished game, in the order they ended:
 * 'W' won, 'D' drawn, 'L' lost.  The letter of a result ("1-0", "0-1",
 * "1/2-1/2") for the side `white` or not; 0 for any other text. */
char tournament_letter(const char *result, bool white);

/* An arena's points for a sheet: a win 2, a draw 1, a loss 0; after two
 * wins in a row the player is "on fire" and every game counts double (a
 * win 4, a draw 2) until a game that is not a win.  *streak (may be NULL)
 * is the wins in a row at the sheet's end: on fire from 2. */
int arena_points(const char *sheet, int *streak);

/* A round-robin's score of a sheet in half points: a win 2, a draw 1. */
int robin_half_points(const char *sheet);

/* A player waiting for a game in a running arena. */
typedef struct ArenaWaiting {
    int64_t id;
    int score;
    int64_t last_opponent;   /* 0: none yet                              */
    int whites, blacks;      /* games played with each colour            */
} ArenaWaiting;

typedef struct ArenaPair {
    int64_t white, black;
} ArenaPair;

/* Pairs the waiting players as lichess's arena does: by score, each with
 * the nearest in the standings who was not their last opponent (no
 * immediate rematch), White to the one who had it less.  Sorts `w`;
 * writes at most n / 2 pairs to out and returns their count.  A player
 * left over waits for the next tick. */
int arena_pair(ArenaWaiting *w, int n, ArenaPair *out);

/* A round-robin's game between players numbered 0..n-1. */
typedef struct RobinGame {
    int white, black;
    char result;             /* 'W' White won, 'B' Black won, 'D' drawn, 0 not over */
} RobinGame;

/* Every pair plays twice, once with each colour: n(n - 1) games into
 * out (room for that many), their count returned. */
int robin_schedule(int n, RobinGame *out);

/* The standings: half_points[i] is player i's score in half points (a win
 * 2, a draw 1), sb[i] their Sonneborn-Berger tie-break in quarter points:
 * the final score of each opponent beaten, and half of each drawn. */
void robin_standings(int n, const RobinGame *games, int count, int *half_points, int *sb);

#endif
