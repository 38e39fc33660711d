/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Tournaments' rules (tournament.h): pure functions, no database.
 */
#include "tournament.h"

#include <stdlib.h>
#include <string.h>

char tournament_letter(const char *result, bool white)
{
    if (!result) return 0;
    if (!strcmp(result, "1/2-1/2")) return 'D';
    if (!strcmp(result, "1-0")) return white ? 'W' : 'L';
    if (!strcmp(result, "0-1")) return white ? 'L' : 'W';
    return 0;
}

int arena_points(const char *sheet, int *streak)
{
    int points = 0, wins = 0;
    for (const char *c = sheet ? sheet : ""; *c; c++) {
        /* The game that ends a streak still counts double: lichess gives
         * a draw on fire 2 points. */
        int factor = wins >= 2 ? 2 : 1;
        if (*c == 'W') points += 2 * factor, wins++;
        else if (*c == 'D') points += factor, wins = 0;
        else wins = 0;
    }
    if (streak) *streak = wins;
    return points;
}

int robin_half_points(const char *sheet)
{
    int halves = 0;
    for (const char *c = sheet ? sheet : ""; *c; c++) halves += *c == 'W' ? 2 : *c == 'D' ? 1 : 0;
    return halves;
}

/* Higher scores first; among equal scores the lower id (the earlier
 * account), so that a pairing is the same on every server. */
static int by_score(const void *a, const void *b)
{
    const ArenaWaiting *x = a, *y = b;
    if (x->score != y->score) return y->score - x->score;
    return (x->id > y->id) - (x->id < y->id);
}

static bool rematch(const ArenaWaiting *a, const ArenaWaiting *b)
{
    return a->last_opponent == b->id || b->last_opponent == a->id;
}

/* White to the player who has had it less often; the higher placed on a
 * tie. */
static ArenaPair colours(const ArenaWaiting *a, const ArenaWaiting *b)
{
    bool a_white = a->whites - a->blacks <= b->whites - b->blacks;
    return a_white ? (ArenaPair){ a->id, b->id } : (ArenaPair){ b->id, a->id };
}

int arena_pair(ArenaWaiting *w, int n, ArenaPair *out)
{
    qsort(w, (size_t)n, sizeof *w, by_score);
    bool *taken = calloc((size_t)(n > 0 ? n : 1), sizeof *taken);
    if (!taken) return 0;
    int pairs = 0;
    for (int i = 0; i < n; i++) {
        if (taken[i]) continue;
        for (int j = i + 1; j < n; j++) {
            if (taken[j] || rematch(&w[i], &w[j])) continue;
            taken[i] = taken[j] = true;
            out[pairs++] = colours(&w[i], &w[j]);
            break;
        }
    }
    free(taken);
    return pairs;
}

int robin_schedule(int n, RobinGame *out)
{
    int count = 0;
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            out[count++] = (RobinGame){ a, b, 0 };
            out[count++] = (RobinGame){ b, a, 0 };
        }
    return count;
}

/* The half points each side of a game scores: {White's, Black's}. */
static void game_halves(char result, int halves[2])
{
    halves[0] = result == 'W' ? 2 : result == 'D' ? 1 : 0;
    halves[1] = result == 'B' ? 2 : result == 'D' ? 1 : 0;
}

void robin_standings(int n, const RobinGame *games, int count, int *half_points, int *sb)
{
    memset(half_points, 0, (size_t)n * sizeof *half_points);
    memset(sb, 0, (size_t)n * sizeof *sb);
    int halves[2];
    for (int i = 0; i < count; i++) {
        if (!games[i].result) continue;
        game_halves(games[i].result, halves);
        half_points[games[i].white] += halves[0];
        half_points[games[i].black] += halves[1];
    }
    /* Each game adds the opponent's final score times what the player
     * took of it (1 for a win, 1/2 for a draw): in quarter points, the
     * opponent's half points times the player's half points of the game. */
    for (int i = 0; i < count; i++) {
        if (!games[i].result) continue;
        game_halves(games[i].result, halves);
        sb[games[i].white] += halves[0] * half_points[games[i].black];
        sb[games[i].black] += halves[1] * half_points[games[i].white];
    }
}
