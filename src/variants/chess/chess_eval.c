/* SPDX-License-Identifier: GPL-3.0-or-later
 * The evaluation of standard chess: the board's (board_eval.c, with the
 * weights fitted to chess), and the ending against a bare king. */
#include <stdlib.h>

#include "bitboard.h"
#include "chess.h"
#include "eval.h"

/* The ending against a bare king.  The board's terms tell a bare king on
 * the edge from one in the centre by a few centipawns only (the king's
 * square table, made for kings among pieces), and a shallow
 * search does not see the mate of king and rook against king from afar:
 * at a few thousand nodes a move (a fast game, a phone's browser) the
 * engine kept its extra queen or rook without mating (test_engine.c).
 * The stronger side is paid for each step the bare king stands from the
 * centre, and for each step its own king comes nearer to it: the two
 * things that lead to the mate. */
static const struct MopUp {
    int edge;   /* per step of the bare king from the centre, 0 to 6 */
    int near;   /* per step the kings are nearer than 14 apart        */
} MOP_UP = { 12, 4 };

/* Steps from the centre's four squares, files and ranks added: 0 to 6. */
static int centre_steps(Square s)
{
    int f = square_file(s), r = square_rank(s);
    return (f < 4 ? 3 - f : f - 4) + (r < 4 ? 3 - r : r - 4);
}

/* Enough to mate a bare king by force: a queen, a rook, or two minor pieces
 * one of which is a bishop.  (Pawns promote: the passed-pawn terms lead.) */
static bool mates_bare_king(const Board *b, Color c)
{
    if (board_pieces(b, c, QUEEN) | board_pieces(b, c, ROOK)) return true;
    int bishops = bb_count(board_pieces(b, c, BISHOP)), knights = bb_count(board_pieces(b, c, KNIGHT));
    return bishops >= 1 && bishops + knights >= 2;
}

/* The bonus for driving a bare king to the edge, from White's side. */
int chess_mop_up(const Board *b)
{
    for (Color strong = WHITE; strong <= BLACK; strong++) {
        Color weak = (Color)!strong;
        Bitboard weak_king = board_kings(b, weak), strong_king = board_kings(b, strong);
        if (b->by_color[weak] != weak_king || bb_count(weak_king) != 1 || bb_count(strong_king) != 1 ||
            !mates_bare_king(b, strong))
            continue;
        Square k = bb_first(weak_king), own = bb_first(strong_king);
        int apart = abs(square_file(k) - square_file(own)) + abs(square_rank(k) - square_rank(own));
        int bonus = MOP_UP.edge * centre_steps(k) + MOP_UP.near * (14 - apart);
        return strong == WHITE ? bonus : -bonus;
    }
    return 0;
}

static int chess_evaluate(const Line *l)
{
    const Board *b = line_board(l);
    int mop_up = chess_mop_up(b);
    return chess_eval_board(b, &CHESS_TUNED_WEIGHTS) + (b->side == WHITE ? mop_up : -mop_up);
}

/* Passing is sound in chess away from zugzwang; the search also asks for
 * pieces besides pawns.  One king a side, as chess has. */
static bool chess_null_move_ok(const Line *l)
{
    const Board *b = line_board(l);
    return bb_count(board_kings(b, b->side)) == 1;
}

const Evaluator EVAL_CHESS = { "chess", chess_evaluate, chess_null_move_ok, NULL, true, 0, NULL, true };
