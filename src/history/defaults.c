/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The defaults of the variant slots that say what check is to a player
 * (variant.h: checked_kings, explain_check): check as chess has it, an
 * attack on a king of the side to move.  A game whose check is something
 * else fills the slots itself.
 */
#include "game.h"

Bitboard checked_kings_attacked(const Line *l)
{
    const Board *b = line_board(l);
    Bitboard kings = board_pieces(b, b->side, KING), checked = 0;
    while (kings) {
        Square s = (Square)__builtin_ctzll(kings);
        kings &= kings - 1;
        if (board_square_attacked(b, s, (Color)(b->side ^ 1))) checked |= 1ULL << s;
    }
    return checked;
}

bool explain_check_attacked(const Line *l, Text *out)
{
    const char *side = line_board(l)->side == WHITE ? "White" : "Black";
    bool check = line_in_check(l);
    text_addf(out, "%s is %sin check", side, check ? "" : "not ");
    text_add(out, check ? ": a king of its is attacked.\n" : ".\n");
    return !out->failed;
}
