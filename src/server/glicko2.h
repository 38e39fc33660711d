/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (2013)
 * describes it: a player's rating, rating deviation (RD) and volatility,
 * updated from the games of one rating period.  The server's rating
 * period is one game, as lichess's is (store_ratings.c).  Pure
 * computation: no SQL, no I/O.
 */
#ifndef TTCHESS_SERVER_GLICKO2_H
#define TTCHESS_SERVER_GLICKO2_H

#include <stdbool.h>

/* The paper's values: a new player's rating, RD and volatility; the
 * system constant tau, which limits how fast the volatility changes
 * (the paper suggests 0.3 to 1.2; its example, and lichess, take 0.5);
 * and the tolerance of the volatility's iteration. */
#define GLICKO2_INITIAL_RATING 1500.0
#define GLICKO2_INITIAL_RD 350.0
#define GLICKO2_INITIAL_VOLATILITY 0.06
#define GLICKO2_TAU 0.5
#define GLICKO2_EPSILON 0.000001
/* A rating is provisional while its RD is above this (lichess's mark:
 * shown "1500?"). */
#define GLICKO2_PROVISIONAL_RD 110.0

typedef struct Glicko2 {
    double rating, rd, volatility;
} Glicko2;

/* One game of the period: the opponent's rating and RD before it, and
 * the player's score (1 a win, 0.5 a draw, 0 a loss). */
typedef struct Glicko2Game {
    double rating, rd;
    double score;
} Glicko2Game;

/* A new player's rating (1500, 350, 0.06). */
Glicko2 glicko2_initial(void);
/* The player's rating after the period's `count` games, with the system
 * constant `tau`; no games: only the RD grows (step 6 alone). */
Glicko2 glicko2_update(Glicko2 player, const Glicko2Game *games, int count, double tau);
/* RD above GLICKO2_PROVISIONAL_RD. */
bool glicko2_provisional(double rd);

#endif
