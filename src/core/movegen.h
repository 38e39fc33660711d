/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Standard chess moves on a Board: generation and making.  Legality is the
 * rule every game here shares: a move is legal iff afterwards none of the
 * mover's kings is attacked, whatever the number of kings.  The
 * generators append to the list and return false only when the memory
 * for it cannot be had. */
#ifndef TTCHESS_MOVEGEN_H
#define TTCHESS_MOVEGEN_H

#include "board.h"

/* Castling: the rights bit, the king's start and landing squares, the
 * rook's, the squares that must be empty and those that must not be
 * attacked.  CASTLE_RULES[colour][0] is the king's side, [1] the queen's. */
typedef struct CastleRule {
    uint8_t right;
    Square king_from, king_to, rook_from, rook_to;
    Bitboard must_be_empty;
    Bitboard must_be_safe;
} CastleRule;

extern const CastleRule CASTLE_RULES[2][2];

/* Appends every legal chess move of the side to move. */
bool gen_legal(const Board *b, MoveList *out);
/* Appends every pseudo-legal chess move (right geometry, ignoring checks;
 * castling only where the path is empty).  Used to explain refusals. */
bool gen_pseudo(const Board *b, MoveList *out);
/* Is this pseudo-legal move legal (mover's kings safe; castling rules)? */
bool move_is_legal(const Board *b, Move m);
/* Plays a chess move (normal, double push, en passant, castling,
 * promotion); the move must be pseudo-legal. */
void board_make(Board *b, Move m);
/* Is an en passant capture legal right now?  (A position's identity
 * includes the en passant square only then.) */
bool board_ep_capture_legal(const Board *b);
/* The board's key as a position's identity: the en passant file counts
 * only when an en passant capture is legal. */
uint64_t board_position_key(const Board *b);
/* Removes the castling rights tied to a square (a king or rook leaving or
 * being taken from its original square). */
uint8_t castling_after_touch(uint8_t rights, Square s);
/* Writes the move in coordinate form (e2e4, e7e8q, e1g1). */
void move_to_coord(Move m, Text *out);

#endif
