/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Piece tags: a number for each square's piece that follows the piece as
 * it moves, for the games where pieces have an identity beyond their type
 * (van Gog's origins, the identities of the Time Traveler's Chess
 * chessmen).  The board itself knows no identities, which keeps it small
 * for the games that need none; a variant that needs them keeps a
 * PieceTags in its own state and, for every chess move it plays, calls
 * tags_after_move with the board as it was before the move.  Its own
 * actions (an arrival, an explosion) set and clear tags directly.
 */
#ifndef TTCHESS_TAGS_H
#define TTCHESS_TAGS_H

#include "board.h"

typedef struct PieceTags {
    uint16_t tag[64];   /* the tag of the piece on each square; 0 on an empty square */
} PieceTags;

/* Moves the tags the way board_make(before, m) moves the pieces: the
 * mover's tag goes with it (a promoted pawn keeps its own), a captured
 * piece's tag goes, and a castling rook takes its tag along. */
void tags_after_move(PieceTags *t, const Board *before, Move m);

#endif
