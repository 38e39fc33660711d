/* SPDX-License-Identifier: GPL-3.0-or-later
 * The evaluation of standard chess: the board's alone (board_eval.c). */
#include "bitboard.h"
#include "chess.h"
#include "eval.h"

static int chess_evaluate(const Line *l) { return chess_eval_board(line_board(l), &CHESS_TUNED_WEIGHTS); }

/* Passing is sound in chess away from zugzwang; the search also asks for
 * pieces besides pawns.  One king a side, as chess has. */
static bool chess_null_move_ok(const Line *l)
{
    const Board *b = line_board(l);
    return bb_count(board_kings(b, b->side)) == 1;
}

const Evaluator EVAL_CHESS = { "chess", chess_evaluate, chess_null_move_ok, NULL, true, 0, NULL, true };
