/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The evaluation of Gifford's Time Travel Chess (eval.h): the board, and
 * the pieces in transit valued by when they arrive.  A piece due soon is
 * nearly as good as one on the board (it lands where its owner chooses);
 * one due far ahead is worth less, for the game may be decided before it
 * lands, and it may be lost in time if it cannot land.  A king in transit
 * is a risk as well as a piece: if it cannot land when due its side loses
 * (docs/rules/gifford.md, "lost in time").
 */
#include "bitboard.h"
#include "eval.h"
#include "gifford.h"

typedef struct GiffordWeights {
    DueValue transit;           /* a piece in transit, by when it arrives       */
    int king_in_transit;        /* a king on its way (centipawns, a cost)       */
    int king_none_on_board;     /* and no king on the board meanwhile           */
    int back_travel_left;       /* each backward travel still allowed           */
} GiffordWeights;

static const GiffordWeights GIFFORD_WEIGHTS = {
    .transit = { .now_percent = 95, .per_move = 5, .min_percent = 45 },
    .king_in_transit = 40,
    .king_none_on_board = 60,
    .back_travel_left = 12,
};

/* What colour c's pieces in transit are worth to it. */
static int transit_value(const Line *l, Color c)
{
    const GiffordWeights *w = &GIFFORD_WEIGHTS;
    const State *s = line_state(l);
    int forward = line_option(l, GIFFORD_FORWARD);
    int first = gifford_first_pending(&s->board, c), value = 0;
    for (int m = first; m <= gifford_last_pending(&s->board, c, forward); m++) {
        uint8_t a = gifford_arrival_at(s, forward, c, m);
        if (!a) continue;
        PieceType t = arrival_type(a);
        if (t == KING) {
            value -= w->king_in_transit;
            if (!board_kings(&s->board, c)) value -= w->king_none_on_board;
            continue;
        }
        value += eval_due_value(t, &w->transit, m - first);
    }
    return value;
}

static int gifford_evaluate(const Line *l)
{
    const State *s = line_state(l);
    const GiffordState *g = gifford_cstate(s);
    int backs = line_option(l, GIFFORD_BACK_TRAVELS);
    int white = transit_value(l, WHITE) + (backs - g->backs_used[WHITE]) * GIFFORD_WEIGHTS.back_travel_left;
    int black = transit_value(l, BLACK) + (backs - g->backs_used[BLACK]) * GIFFORD_WEIGHTS.back_travel_left;
    int extra = s->board.side == WHITE ? white - black : black - white;
    return chess_eval_board(&s->board, NULL) + extra;
}

/* A pass changes the move number, and with it which arrival is due: only
 * with nothing in transit, and one king for the side to move, is the
 * game's own state inert. */
static bool gifford_null_move_ok(const Line *l)
{
    const State *s = line_state(l);
    int forward = line_option(l, GIFFORD_FORWARD);
    if (bb_count(board_kings(&s->board, s->board.side)) != 1) return false;
    for (Color c = WHITE; c <= BLACK; c++)
        for (int m = gifford_first_pending(&s->board, c); m <= gifford_last_pending(&s->board, c, forward); m++)
            if (gifford_arrival_at(s, forward, c, m)) return false;
    return true;
}

const Evaluator EVAL_GIFFORD = { "gifford", gifford_evaluate, gifford_null_move_ok, NULL, true, 0, NULL, false };
