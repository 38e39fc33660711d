/* SPDX-License-Identifier: GPL-3.0-or-later
 * Piece tags that follow chess moves (see ttchess/tags.h). */
#include "tags.h"

void tags_after_move(PieceTags *t, const Board *before, Move m)
{
    uint16_t mover = t->tag[m.from];
    t->tag[m.from] = 0;
    t->tag[m.to] = mover;
    if (m.kind == MOVE_EN_PASSANT) t->tag[before->side == WHITE ? m.to - 8 : m.to + 8] = 0;
    if (m.kind == MOVE_CASTLE) {
        /* The rook stands in the corner on the king's side of the move
         * and lands on the square the king crossed. */
        Square rook_from = m.to > m.from ? (Square)(m.from + 3) : (Square)(m.from - 4);
        Square rook_to = m.to > m.from ? (Square)(m.from + 1) : (Square)(m.from - 1);
        t->tag[rook_to] = t->tag[rook_from];
        t->tag[rook_from] = 0;
    }
}
