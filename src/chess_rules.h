/* SPDX-License-Identifier: GPL-3.0-or-later
 * Pieces of the chess rules that the time-travel variants reuse. */
#ifndef TTCHESS_CHESS_RULES_H
#define TTCHESS_CHESS_RULES_H

#include "ttchess/game.h"

/* Only kings and at most one minor piece, or bishops all on one colour. */
bool chess_insufficient_material(const Board *b);
/* Checkmate, stalemate, threefold repetition, fifty-move rule, given the
 * number of legal actions in the present position. */
Outcome chess_board_outcome(const Game *g, int legal_count);
/* Same pieces, side, castling, and en passant where a capture is legal. */
bool chess_same_board_position(const Board *a, const Board *b);

#endif
