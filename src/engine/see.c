/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Static exchange evaluation: what a capture wins on its square once
 * every piece that can take there has taken, the cheapest first, each
 * side free to stop when going on would lose.  It is a guess about the
 * present board only (time travel is not in it): the search uses it to
 * try good captures first and to leave losing ones out of quiescence,
 * where a board full of queens (a van Gog game with many arrivals) would
 * otherwise follow every chain of captures to its end.
 */
#include "see.h"

#include "attacks.h"
#include "bitboard.h"
#include "eval.h"

/* The least valuable piece of `side` among `attackers`, or NO_TYPE. */
static PieceType least_valuable(const Board *b, Bitboard attackers, Color side, Square *from)
{
    for (PieceType t = PAWN; t <= KING; t++) {
        Bitboard set = attackers & board_pieces(b, side, t);
        if (set) {
            *from = bb_first(set);
            return t;
        }
    }
    return NO_TYPE;
}

int see_value(const Board *b, Move m)
{
    if (!move_is_chess(m) || m.kind == MOVE_CASTLE) return 0;
    Square to = m.to;
    Piece victim = m.kind == MOVE_EN_PASSANT ? make_piece((Color)(1 - (b->side)), PAWN) : b->squares[to];
    Piece mover = b->squares[m.from];
    if (mover == NO_PIECE) return 0;
    /* gain[d] is what the side making capture d has won so far, from its view. */
    int gain[40];
    int depth = 0;
    gain[0] = victim ? eval_piece_value(piece_type(victim)) : 0;
    PieceType on_square = piece_type(mover);
    if (m.kind == MOVE_PROMOTION) {
        gain[0] += eval_piece_value(m.piece) - eval_piece_value(PAWN);
        on_square = m.piece;
    }
    Bitboard occ = board_occupied(b) & ~BB(m.from);
    if (m.kind == MOVE_EN_PASSANT) occ &= ~BB(b->side == WHITE ? to - 8 : to + 8);
    occ |= BB(to);
    Color side = (Color)(1 - (b->side));
    while (depth < 38) {
        Bitboard attackers = board_attackers(b, to, side, occ) & occ;
        Square from;
        PieceType t = least_valuable(b, attackers, side, &from);
        if (t == NO_TYPE) break;
        depth++;
        gain[depth] = eval_piece_value(on_square) - gain[depth - 1];
        /* A king may take only when nothing can take it back. */
        if (t == KING && (board_attackers(b, to, (Color)(1 - (side)), occ & ~BB(from)) & occ & ~BB(from))) {
            depth--;
            break;
        }
        occ &= ~BB(from);
        on_square = t;
        side = (Color)(1 - (side));
    }
    while (depth > 0) {
        int stand = -gain[depth - 1];
        if (gain[depth] > stand) stand = gain[depth];
        gain[depth - 1] = -stand;
        depth--;
    }
    return gain[0];
}
