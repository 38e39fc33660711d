/* SPDX-License-Identifier: GPL-3.0-or-later
 * Pieces of the chess rules that the time-travel variants share. */
#ifndef TTCHESS_RULES_H
#define TTCHESS_RULES_H

#include "game.h"

/* Only kings and at most one minor piece, or bishops all on one colour. */
bool chess_insufficient_material(const Board *b);

/* Has colour c a man on the board besides its kings? */
static inline bool has_men_besides_kings(const Board *b, Color c)
{
    return (b->by_color[c] & ~b->by_type[KING]) != 0;
}

/* The ends every game shares, given the number of legal actions and
 * whether the position is dead, in the order a result line names them
 * when several apply at once: checkmate, stalemate, dead position
 * ("insufficient material"), fifty-move rule, threefold repetition.
 * A variant checks its own ends (a king lost in time) before these. */
Outcome standard_outcome(const Line *l, int legal_count, bool dead_position);

/* Same pieces, side to move and castling rights. */
bool same_pieces_side_castling(const Board *a, const Board *b);
/* Same pieces, side, castling, and en passant where a capture is legal. */
bool chess_same_board_position(const Board *a, const Board *b);

/* Refuses a position in which the side not to move stands in check (its
 * opponent could take a king); true if there is none. */
bool fen_side_not_to_move_safe(const Board *b, Text *err);

/* The next field of a FEN's variant part after *p (fields are separated
 * by white space); its length, 0 if there is none. */
size_t fen_next_field(const char **p, const char **start);

/* A new State for a FEN with `ext_size` bytes of ext, zeroed; NULL (and
 * err) when out of memory. */
State *state_new(size_t ext_size, Text *err);

/* The legal actions at the line's present position in a new list, for
 * the notation's and the outcome's needs; false (and err, if given) when
 * out of memory.  Free the list with movelist_free. */
bool legal_actions(const Line *l, MoveList *out, Text *err);

/* How many legal actions the line's present position has; false when out
 * of memory. */
bool legal_count(const Line *l, int *count);

/* Takes m if it is legal at the line's present position; otherwise has
 * `explain` say which rule forbids it.  False when refused or out of
 * memory (err says which). */
bool accept_if_legal(const Line *l, Move m, void (*explain)(const Line *l, Move m, Text *err), Move *out, Text *err);

/* SAN of a chess move at the line's present position, its check mark
 * worked out on a line of its own; false only when out of memory. */
bool san_in_line(const Line *l, Move m, Text *out);

#endif
