/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The mate solver (engine.h, engine_solve_mate): an exhaustive AND-OR
 * search.  At the attacker's turn one action that wins against every
 * defence is enough; at the defender's turn every action must lose.  No
 * evaluation, no pruning, no table: every defence is tried, so a "no" is a
 * proof.  The game's own rules say when a game ends and who wins (the
 * variant's outcome() at every position): a checkmate, a king lost in
 * time, obligations unmet, a grammatically incorrect side; a draw by
 * repetition or the fifty-move rule is the defender's escape, as in a game.
 *
 * The attacker's actions are tried checks first, then captures, so that a
 * mate is usually found early; the order changes nothing about the proof.
 */
#include "engine.h"

#include <stdlib.h>
#include <string.h>

#include "pv.h"

typedef struct Solver {
    Line line;
    Color attacker;
    const volatile bool *stop;
    bool failed;              /* out of memory, or stopped */
    bool stopped;
    uint64_t nodes;
    MoveList lists[ENGINE_MAX_PLY + 1];
    Move pv[ENGINE_MAX_PLY + 1][ENGINE_MAX_PLY + 1];
    int pv_length[ENGINE_MAX_PLY + 1];
} Solver;

enum { END_NONE, END_ATTACKER_WINS, END_OTHER };

/* Has the game ended at the line's present position, and how? */
static int game_end(Solver *s)
{
    Outcome o;
    if (!line_outcome(&s->line, &o)) {
        s->failed = true;
        return END_OTHER;
    }
    if (o.result == RESULT_NONE) return END_NONE;
    bool white_wins = o.result == RESULT_WHITE_WINS, black_wins = o.result == RESULT_BLACK_WINS;
    if ((s->attacker == WHITE && white_wins) || (s->attacker == BLACK && black_wins)) return END_ATTACKER_WINS;
    return END_OTHER;
}

static bool interrupted(Solver *s)
{
    s->nodes++;
    if (s->stop && *s->stop) s->stopped = s->failed = true;
    return s->failed;
}

static void set_pv(Solver *s, int ply, Move m)
{
    pv_prepend(s->pv, s->pv_length, ply, m);
}

/* Checks first, then captures, then the rest: a stable partition of the
 * list, worked out by trying each action on the line. */
static bool order_attacks(Solver *s, MoveList *list)
{
    const Board *b = line_board(&s->line);
    int *rank = malloc((size_t)(list->count ? list->count : 1) * sizeof *rank);
    Move *sorted = malloc((size_t)(list->count ? list->count : 1) * sizeof *sorted);
    if (!rank || !sorted) {
        free(rank);
        free(sorted);
        return false;
    }
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (!line_push(&s->line, m)) {
            free(rank);
            free(sorted);
            return false;
        }
        bool check = line_in_check(&s->line);
        line_pop(&s->line);
        bool capture = !(m.flags & MOVE_AT_NODE) && m.to < 64 && b->squares[m.to] &&
                       piece_color(b->squares[m.to]) != b->side;
        rank[i] = check ? 0 : capture ? 1 : 2;
    }
    int n = 0;
    for (int r = 0; r <= 2; r++)
        for (int i = 0; i < list->count; i++)
            if (rank[i] == r) sorted[n++] = list->moves[i];
    memcpy(list->moves, sorted, (size_t)n * sizeof *sorted);
    free(rank);
    free(sorted);
    return true;
}

static bool defend(Solver *s, int moves, int ply);

/* Can the attacker, to move, win within `moves` moves? */
static bool attack(Solver *s, int moves, int ply)
{
    s->pv_length[ply] = 0;
    if (moves <= 0 || ply >= ENGINE_MAX_PLY - 1 || interrupted(s)) return false;
    MoveList *list = &s->lists[ply];
    if (!line_generate(&s->line, list) || !order_attacks(s, list)) {
        s->failed = true;
        return false;
    }
    for (int i = 0; i < list->count && !s->failed; i++) {
        Move m = list->moves[i];
        if (!line_push(&s->line, m)) {
            s->failed = true;
            return false;
        }
        int end = game_end(s);
        bool wins = end == END_ATTACKER_WINS;
        if (end == END_ATTACKER_WINS) s->pv_length[ply + 1] = 0;
        else if (end == END_NONE && moves > 1) wins = defend(s, moves - 1, ply + 1);
        line_pop(&s->line);
        if (wins && !s->failed) {
            set_pv(s, ply, m);
            return true;
        }
    }
    return false;
}

/* Does every action of the defender, to move, lose within `moves` more
 * moves of the attacker? */
static bool defend(Solver *s, int moves, int ply)
{
    s->pv_length[ply] = 0;
    if (ply >= ENGINE_MAX_PLY - 1 || interrupted(s)) return false;
    MoveList *list = &s->lists[ply];
    if (!line_generate(&s->line, list)) {
        s->failed = true;
        return false;
    }
    Move first_pv[ENGINE_MAX_PLY + 1];
    int first_length = 0;
    for (int i = 0; i < list->count; i++) {
        Move m = list->moves[i];
        if (!line_push(&s->line, m)) {
            s->failed = true;
            return false;
        }
        int end = game_end(s);
        bool lost = end == END_ATTACKER_WINS || (end == END_NONE && attack(s, moves, ply + 1));
        if (end == END_ATTACKER_WINS) s->pv_length[ply + 1] = 0;
        line_pop(&s->line);
        if (!lost || s->failed) return false;
        if (i == 0) {
            set_pv(s, ply, m);
            first_length = s->pv_length[ply];
            memcpy(first_pv, s->pv[ply], (size_t)first_length * sizeof(Move));
        }
    }
    /* Show the first defence's line (every one loses). */
    memcpy(s->pv[ply], first_pv, (size_t)first_length * sizeof(Move));
    s->pv_length[ply] = first_length;
    return list->count > 0;
}

bool engine_solve_mate(const Game *g, int moves, const volatile bool *stop, SolveResult *out, Text *err)
{
    memset(out, 0, sizeof *out);
    Solver *s = calloc(1, sizeof *s);
    if (!s) return text_fail(err, "out of memory");
    line_open(&s->line, g, game_current(g));
    s->attacker = game_board(g)->side;
    s->stop = stop;
    for (int i = 0; i <= ENGINE_MAX_PLY; i++) movelist_init(&s->lists[i]);
    if (moves > ENGINE_MAX_PLY / 2 - 1) moves = ENGINE_MAX_PLY / 2 - 1;
    Outcome o;
    bool ok = game_outcome(g, &o);
    /* The shortest win first: each depth is a complete proof. */
    for (int n = 1; ok && o.result == RESULT_NONE && n <= moves && !s->failed; n++) {
        if (attack(s, n, 0)) {
            out->found = true;
            out->moves = n;
            out->pv_length = s->pv_length[0];
            memcpy(out->pv, s->pv[0], (size_t)out->pv_length * sizeof(Move));
            break;
        }
    }
    out->nodes = s->nodes;
    bool stopped = s->stopped, failed = s->failed || !ok;
    line_close(&s->line);
    for (int i = 0; i <= ENGINE_MAX_PLY; i++) movelist_free(&s->lists[i]);
    free(s);
    if (stopped) return text_fail(err, "stopped");
    if (failed) return text_fail(err, "out of memory");
    return true;
}
